import type { Knex } from 'knex';
import { RECEIVABLE_ACCOUNTS } from './013-list-counts';
import { OUTFLOW_LISTS } from './018-outflow-list-counts';
import { LEDGER_AND_PARTY_LISTS } from './027-ledger-and-party-counts';
import { EVENTS_BY_HOUR, RECEIVABLES_BY_DAY_AND_HOUR } from './042-window-counts';
import { countingFunctionSql } from './counted-lists';

/** Every counted list as it is counted now. */
const COUNTED = [
  RECEIVABLES_BY_DAY_AND_HOUR,
  EVENTS_BY_HOUR,
  RECEIVABLE_ACCOUNTS,
  ...OUTFLOW_LISTS.filter((counted) => counted.list !== EVENTS_BY_HOUR.list),
  ...LEDGER_AND_PARTY_LISTS,
];

/**
 * The daily fold read every count group, a row each and more every hour of history (042's buckets), to fold the
 * few that writers had spread over slots since: 83,459 groups read for none to fold (1.1 s) for one customer's
 * year. Writers now add to slots 1 to 8 (counted-lists.ts), slot 0 is the fold's alone, and an index holds the
 * writers' slots: the fold reads the groups written since it last ran, and a count back at 0 always has a writer's
 * slot to be found by. The counts at 0 writers left in slot 0 before go now; a writer racing the delete makes its
 * row non-zero, and READ COMMITTED re-reads the row before deleting it. A writer whose statement began before this
 * commits still writes slot 0 once; a count it leaves at 0 there goes when its group is next written and folded.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ${COUNTED.map(countingFunctionSql).join('\n')}
    CREATE INDEX list_counts_written ON list_counts (list, customer_id, scope, scope_id, status) WHERE slot <> 0;
    DELETE FROM list_counts WHERE slot = 0 AND n = 0 AND amount_minor = 0;
  `);
}

/** The functions stay: writers on slots 1 to 8 keep the same sums, and the fold before this reads every count anyway. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX list_counts_written');
}
