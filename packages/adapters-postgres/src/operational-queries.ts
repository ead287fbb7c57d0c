import type { Knex } from 'knex';
import type { CredentialSnapshot } from '@rcs/domain';
import type { CredentialRow } from './repositories/knex-customer-repositories';

/** Readiness: the database answers a trivial query. */
export async function databaseReady(knex: Knex): Promise<boolean> {
  try {
    await knex.raw('SELECT 1');
    return true;
  } catch {
    return false;
  }
}

/** What a bearer token's credential is now (its owner, its clientId, its scopes, revoked or not); undefined if there is none. */
export async function credentialOfToken(
  knex: Knex,
  credentialId: number,
): Promise<Pick<CredentialSnapshot, 'customerId' | 'clientId' | 'status' | 'scopes'> | undefined> {
  const row = await knex('credentials')
    .where({ id: credentialId })
    .first<Pick<CredentialRow, 'customer_id' | 'client_id' | 'status' | 'scopes'> | undefined>('customer_id', 'client_id', 'status', 'scopes');
  return row && { customerId: Number(row.customer_id), clientId: row.client_id, status: row.status, scopes: row.scopes };
}
