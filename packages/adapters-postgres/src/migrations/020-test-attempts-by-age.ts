import type { Knex } from 'knex';

/**
 * Test deliveries (webhook.test) have no outbox event whose purge takes them along: the event purge deletes them
 * by age instead, reading the oldest through this index and never the rest of the delivery history.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX webhook_deliveries_test_by_age ON webhook_deliveries (created_at) WHERE event_type = 'webhook.test'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX webhook_deliveries_test_by_age');
}
