import type { Knex } from 'knex';

/**
 * Balances, and the settlements and movements that sweep whole balances, as NUMERIC(40, 0) instead of BIGINT: a
 * receivable account collecting the largest single amount 9,224 times passed a BIGINT's 92,233,720,368,547,758.07,
 * and then every collection on it failed with a 500, and so did every settlement run whose chunk held it, other
 * customers' accounts included. Amounts a caller sends stay BIGINT (each at most 9999999999999.99). Forty digits
 * are more than any sum of those can reach; the column is rewritten, once.
 */
const SUMS: ReadonlyArray<readonly [string, string]> = [
  ['receivable_accounts', 'balance_minor'],
  ['current_accounts', 'balance_minor'],
  ['settlements', 'amount_minor'],
  ['movements', 'amount_minor'],
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(SUMS.map(([table, column]) => `ALTER TABLE ${table} ALTER COLUMN ${column} TYPE NUMERIC(40, 0);`).join('\n'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(SUMS.map(([table, column]) => `ALTER TABLE ${table} ALTER COLUMN ${column} TYPE BIGINT;`).join('\n'));
}
