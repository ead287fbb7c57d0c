import type { Knex } from 'knex';

/**
 * Two lists filtered by a status within a narrower filter, which their indexes did not hold together: an account's
 * transfers by status (`sourceAccountId` and `status`: every transfer of the account read, 99,950 counted for one
 * status) and one webhook's attempts of an event type by status (`eventType` and `status`: every FAILED attempt of
 * the webhook read to find one type's). Each index now holds the status after the narrower filter and before the
 * list's order, replacing the one without it (no write does more); without a status the list reads it as merged
 * status ranges.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX transfers_source_account_status ON transfers (customer_id, source_account_id, status, creation_date DESC, id DESC);
    DROP INDEX transfers_source_account;
    CREATE INDEX webhook_deliveries_type_status ON webhook_deliveries (webhook_id, event_type, status, created_at DESC, id DESC);
    DROP INDEX webhook_deliveries_type;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX transfers_source_account ON transfers (customer_id, source_account_id, creation_date DESC, id DESC);
    DROP INDEX transfers_source_account_status;
    CREATE INDEX webhook_deliveries_type ON webhook_deliveries (webhook_id, event_type, created_at DESC, id DESC);
    DROP INDEX webhook_deliveries_type_status;
  `);
}
