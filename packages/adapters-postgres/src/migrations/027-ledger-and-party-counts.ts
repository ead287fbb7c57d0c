import type { Knex } from 'knex';
import { countedListSql, uncountedListSql, type CountedTable } from './counted-lists';

/**
 * Maintained counts (counted-lists.ts) for the lists that still counted every matching row on each page 1: a
 * MAIN current account's million movements, or a customer's 500,000 settlements, were a sequential scan per page.
 * Each is counted unfiltered and by the one filter it is most read with:
 * - movements of one account (never of the whole customer: the list is only read within an account), with or
 *   without `operationType`. Both account kinds draw their ids from one sequence (account_id_seq, migration 001),
 *   so account_id alone names an account of either kind, as the list's own query takes it, and one scope holds
 *   both. Split by operation type rather than movement type: on a receivable account CREDIT is DEPOSIT and DEBIT
 *   is SETTLEMENT, so either answers the same there; on a current account operationType tells the settlements'
 *   credits from the transfers (out, in, reversed), which movementType mixes.
 * - settlements of the customer or of one receivable account; they have no status, and their other filters are
 *   the creation-date window and ids.
 * - clients of the customer, unfiltered: a taxId or an externalId matches a few rows from its index, and
 *   documentType or branchExternalCode barely narrow the list.
 * - associates of the customer, with or without `status`, which the list reads ACTIVE unless told (SPEC); taxId,
 *   documentNumber and a supervisor's team (parentAssociateId) match a few rows.
 * - route settlements of the customer or of one associate (also /v1/associates/{id}/route-settlements); a
 *   routeCode matches one, and their dates are the shift's day, not the creation date.
 * Their price on the write paths: the settlement cycle's chunk inserts its settlements and each side's movements
 * in one statement each, so each runs one grouped upsert more (a row per account of the chunk and one for the
 * customer), no round trip; a collection or a transfer's movements one each. Movements are never updated
 * (migration 004 refuses it), settlements and route settlements never are; a client's update changes no count
 * (counted by customer alone: no UPDATE trigger), an associate's pays one upsert.
 */
export const LEDGER_AND_PARTY_LISTS: readonly CountedTable[] = [
  { list: 'movements', table: 'movements', scopes: { account: 'account_id' }, status: 'operation_type', wholeCustomer: false },
  { list: 'settlements', table: 'settlements', scopes: { account: 'receivable_account_id' }, status: null },
  { list: 'clients', table: 'clients', scopes: {}, status: null },
  { list: 'associates', table: 'associates', scopes: {} },
  { list: 'route_settlements', table: 'route_settlements', scopes: { associate: 'associate_id' }, status: null },
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(LEDGER_AND_PARTY_LISTS.map(countedListSql).join('\n'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(LEDGER_AND_PARTY_LISTS.map(uncountedListSql).join('\n'));
}
