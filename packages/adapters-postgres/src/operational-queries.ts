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

/** Whether a credential exists and is not revoked: bearer tokens of revoked credentials stop working. */
export async function credentialActive(knex: Knex, credentialId: number): Promise<boolean> {
  const row = await knex('credentials').where({ id: credentialId, status: 'ACTIVE' }).first('id');
  return row !== undefined;
}
