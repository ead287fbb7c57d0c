import type { Knex } from 'knex';

/**
 * A webhook's run of failures counts a failed attempt only when it was sent after the last counted failure was
 * answered (runOfFailures): the attempts in flight together when an endpoint goes down count once. This keeps when
 * that last counted failure was answered; null for a run counted before, whose next failure then counts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE webhooks ADD COLUMN failures_counted_until TIMESTAMPTZ');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE webhooks DROP COLUMN failures_counted_until');
}
