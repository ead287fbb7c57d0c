import type { Knex } from 'knex';
import { RECEIVABLES } from './013-list-counts';
import { RECEIVABLES_WITH_AMOUNTS } from './028-maintained-pending-amounts';
import { countingFunctionSql, summedAmountsSql, type CountedTable } from './counted-lists';

/**
 * stats.pendingAmount as SPEC words it: "Sum of amounts of the account's receivables in PENDING", each amount
 * positive whatever its type (SPEC says "net sum" where it means one: a route settlement's summary). Migration 028
 * kept the amounts signed by type; this re-creates the counting function with the amounts as they are and sums the
 * receivables' counts again, holding off their writers as 028 does, for the same reason and with the same deadlock
 * with a writer that took list_counts first (the loser goes again).
 */
export const RECEIVABLES_WITH_SUMS: CountedTable = { ...RECEIVABLES, amount: (table) => `${table}.amount_minor` };

const resummed = (counted: CountedTable) => `
  LOCK TABLE receivables IN SHARE ROW EXCLUSIVE MODE;
  UPDATE list_counts SET amount_minor = 0 WHERE list = '${counted.list}' AND amount_minor <> 0;
  ${countingFunctionSql(counted)}
  ${summedAmountsSql(counted)}
`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(resummed(RECEIVABLES_WITH_SUMS));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(resummed(RECEIVABLES_WITH_AMOUNTS));
}
