import type { Knex } from 'knex';

/** Readiness: the database answers a trivial query. */
export async function databaseReady(knex: Knex): Promise<boolean> {
  try {
    await knex.raw('SELECT 1');
    return true;
  } catch {
    return false;
  }
}
