import type { Knex } from 'knex';

/**
 * The provisioning worker takes due accounts `ORDER BY next_attempt_at, id LIMIT n`; an index on next_attempt_at
 * alone left ties to a sort of every due account, every pass (50,000 opened at once: 49,600 rows read and sorted
 * on disk to claim 50). With id in the index the pass reads what it claims plus what other workers hold.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX receivable_accounts_provisioning_queue ON receivable_accounts (next_attempt_at, id) WHERE status = 'PROVISIONING';
    DROP INDEX receivable_accounts_provisioning;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX receivable_accounts_provisioning ON receivable_accounts (next_attempt_at) WHERE status = 'PROVISIONING';
    DROP INDEX receivable_accounts_provisioning_queue;
  `);
}
