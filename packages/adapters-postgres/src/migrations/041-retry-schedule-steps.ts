import type { Knex } from 'knex';

/**
 * Each attempt's step in the CONTRACT retry schedule, apart from its number: a manual redelivery takes the next
 * number, and the schedule read from numbers then skipped a step and ended an attempt early for each redelivery.
 * Null for test deliveries and redeliveries, which no retry follows. Only attempts still PENDING are read for
 * their step, so only those are filled, through the two partial indexes that hold them (due or leased, and held);
 * the ended ones keep a null nobody reads. Those pending are given the step their number gave them before.
 */
const DUE = 'COALESCE(claimed_until, next_attempt_at)';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE webhook_deliveries ADD COLUMN schedule_step SMALLINT;
    UPDATE webhook_deliveries SET schedule_step = attempt
    WHERE event_type <> 'webhook.test'
      AND ((status = 'PENDING' AND ${DUE} IS NOT NULL) OR (status = 'PENDING' AND next_attempt_at IS NULL AND claimed_until IS NULL));
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE webhook_deliveries DROP COLUMN schedule_step');
}
