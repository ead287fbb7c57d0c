import type { Knex } from 'knex';
import { RECEIVABLE_ACCOUNTS, RECEIVABLES } from './013-list-counts';
import { OUTFLOW_LISTS } from './018-outflow-list-counts';
import { countingFunctionSql } from './counted-lists';

/**
 * The counting functions of every counted list lock their count rows in scope order (counted-lists.ts says why):
 * migrations 013 and 018 made them in customer order, and a dispatch writing a webhook's attempts in chunks, in
 * webhook order, could deadlock with the recording of the same webhooks' results. Only the functions change; the
 * counts they keep are the same.
 */
const COUNTED = [RECEIVABLES, RECEIVABLE_ACCOUNTS, ...OUTFLOW_LISTS];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(COUNTED.map(countingFunctionSql).join('\n'));
}

/** The order locks are taken in is no part of what the counts hold: nothing to undo. */
export async function down(): Promise<void> {}
