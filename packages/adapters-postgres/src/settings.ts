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

/**
 * The mode a database serves, marked by its first start and answered from then on. One set up before the mark is
 * the sandbox's when it holds a customer the sandbox makes (`sandboxCustomerName`), production's when it holds
 * other customers (a start in the wrong mode does not take it over), and empty, the starting mode's.
 */
export async function claimDatabaseMode(knex: Knex, mode: string, sandboxCustomerName: string): Promise<string> {
  const marked = await knex('settings').where({ key: 'mode' }).first<{ value: string } | undefined>('value');
  if (marked) return marked.value;
  const sandboxMade = await knex('customers').where({ name: sandboxCustomerName }).first<{ id: number } | undefined>('id');
  const anyCustomer = sandboxMade ?? (await knex('customers').first<{ id: number } | undefined>('id'));
  return ensureSetting(knex, 'mode', sandboxMade ? 'sandbox' : anyCustomer ? 'production' : mode);
}
