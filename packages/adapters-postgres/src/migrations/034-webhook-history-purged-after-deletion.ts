import type { Knex } from 'knex';
import { lowerNextDueFunctionSql } from './024-webhook-next-due';

/**
 * A webhook's deletion no longer takes its delivery history with it: by cascade, a webhook holding a million
 * attempts took 4.2 s in the request, their counts and every index entry with them. Its attempts stay, in no answer
 * (the API reads them through their webhook, and claims through its next-due row, which does go with it), until the event purge deletes them in batches, led by `deleted_webhooks`: one row per deletion, kept for the
 * events' retention, so attempts a dispatch that read the webhook before its deletion wrote after it are taken too.
 * Without the foreign key such an attempt is written instead of failing its dispatch, and the next-due trigger
 * leaves the bound of a webhook that is gone unwritten: its row would refer to nothing.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_webhook_id_fkey;
    CREATE TABLE deleted_webhooks (
      webhook_id  BIGINT PRIMARY KEY,
      customer_id BIGINT NOT NULL,
      deleted_at  TIMESTAMPTZ NOT NULL
    );
    ${lowerNextDueFunctionSql(true)}
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ${lowerNextDueFunctionSql(false)}
    DELETE FROM webhook_deliveries d WHERE NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id);
    ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_webhook_id_fkey FOREIGN KEY (webhook_id) REFERENCES webhooks (id) ON DELETE CASCADE;
    DROP TABLE deleted_webhooks;
  `);
}
