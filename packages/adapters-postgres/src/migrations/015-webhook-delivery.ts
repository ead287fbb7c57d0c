import type { Knex } from 'knex';

/**
 * Sending webhooks. An attempt is held (PENDING with neither next_attempt_at nor claimed_until) while its webhook is
 * PAUSED or FAILED; an activation releases it, or WEBHOOK_RETENTION_HOURS expire it.
 * - consecutive_failures: the run of failed attempts that makes an ACTIVE webhook FAILED past
 *   WEBHOOK_FAILURE_THRESHOLD; bumped by the same UPDATE that records the last delivery.
 * - By event: the event purge keeps an event while an attempt of it is PENDING, and deletes its finished attempts
 *   with it, so neither table only grows.
 * - Held attempts by age: the expiry reads the oldest ones and stops at the first recent one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE webhooks ADD COLUMN consecutive_failures INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);
    CREATE INDEX webhook_deliveries_held ON webhook_deliveries (created_at)
      WHERE status = 'PENDING' AND next_attempt_at IS NULL AND claimed_until IS NULL;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX webhook_deliveries_held;
    DROP INDEX webhook_deliveries_event;
    ALTER TABLE webhooks DROP COLUMN consecutive_failures;
  `);
}
