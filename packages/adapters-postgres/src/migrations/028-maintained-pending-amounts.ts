import type { Knex } from 'knex';
import { signedAmountSql } from '../repositories/receivable-rows';
import { RECEIVABLES } from './013-list-counts';
import { countingFunctionSql, summedAmountsSql, type CountedTable } from './counted-lists';

/**
 * The receivables' counts with the net sum of their amounts, signed by type as the domain signs them: a change
 * to POSITIVE_TYPES needs a migration re-creating this function and summing the amounts again.
 */
export const RECEIVABLES_WITH_AMOUNTS: CountedTable = { ...RECEIVABLES, amount: signedAmountSql };

/**
 * An account's stats.pendingAmount is read from list_counts (the account's PENDING count rows, at most 8 slots)
 * instead of summing every PENDING receivable of the account on each read (300,200 rows read for one account
 * holding 300,000).
 *
 * The amount is a column of list_counts, not a table of its own: every statement that changes a pending amount
 * (a creation, a status move, an edit of the amount, a deletion, the settlement's set-based UPDATE) already writes
 * that account's PENDING count rows, in the connection's slot and in scope order (counted-lists.ts). Summing the
 * amount into the same rows adds no row, no lock, no lock order and no second pass over the statement's transition
 * tables: an own table would need a second grouped upsert on every creation and its own capture and scan of the
 * settlement's million-row UPDATE. Every other count (customer, client, associate; each status) gets its amount
 * too, for the cost of a sum; other lists' rows hold 0.
 *
 * NUMERIC, not BIGINT: a customer's count of SETTLED receivables sums every amount it ever settled, which may pass
 * 2^63 minor units, and a write overflowing it would fail.
 *
 * Receivables' writers are held off (SHARE ROW EXCLUSIVE) before the amounts are summed: a writer committing
 * between the sum and the new function would be missed by both. Writers take receivables and list_counts in either
 * order (a creation writes the receivable first, the settlement cycle a counted settlement first), so this lock and
 * the ALTER of list_counts may deadlock with one of them: whichever PostgreSQL aborts fails whole and goes again, a
 * request answered 409 for its caller to retry, a settlement cycle on its next run, this migration by migrateToLatest. Its ALTER holds list_counts to its commit, through the
 * backfill's pass over the receivables (about 2 s a million rows here): counted writes and page-1 totals wait.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('LOCK TABLE receivables IN SHARE ROW EXCLUSIVE MODE');
  await knex.raw(`
    ALTER TABLE list_counts ADD COLUMN amount_minor NUMERIC NOT NULL DEFAULT 0;
    ${countingFunctionSql(RECEIVABLES_WITH_AMOUNTS)}
    ${summedAmountsSql(RECEIVABLES_WITH_AMOUNTS)}
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ${countingFunctionSql(RECEIVABLES)}
    ALTER TABLE list_counts DROP COLUMN amount_minor;
  `);
}
