import type { Knex } from 'knex';

/**
 * Each attempt's step in the CONTRACT retry schedule, apart from its number: a manual redelivery takes the next
 * number, and the schedule read from numbers then skipped a step and ended an attempt early for each redelivery.
 * 0 for test deliveries and redeliveries, which no retry follows. NULL for rows written without it (before this
 * migration, or by an instance of the previous version still running while the others start): their step is
 * their number, as that version read it. So the column comes without rewriting or reading a row of the table.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE webhook_deliveries ADD COLUMN schedule_step SMALLINT');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE webhook_deliveries DROP COLUMN schedule_step');
}
