import type { Knex } from 'knex';

/**
 * Returns the stored value of a service-wide setting, storing `candidate` first if none exists. Instances that
 * start together all end up with the first value written.
 */
export async function ensureSetting(knex: Knex, key: string, candidate: string): Promise<string> {
  await knex('settings').insert({ key, value: candidate }).onConflict('key').ignore();
  const row = await knex('settings').where({ key }).first<{ value: string }>('value');
  return row.value;
}
