import type { Knex } from 'knex';
import { lowerNextDueFunctionSql } from './024-webhook-next-due';

/**
 * A webhook's deletion no longer takes its delivery history with it: by cascade, a webhook holding a million
 * attempts took 4.2 s in the request, their counts and every index entry with them. Its attempts stay, in no answer
 * (the API reads them through their webhook, and claims through its next-due row, which does go with it), until
 * the event purge deletes them in batches, led by `deleted_webhooks` (one row per deletion, until its attempts are
 * gone). What the foreign key did besides is kept where it matters: attempts are scheduled only for webhooks that
 * exist, read under a key-share lock (a deletion waits for the dispatch, or the dispatch for the deletion and then
 * writes nothing), and the next-due trigger writes no bound for a webhook that is gone or going.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_webhook_id_fkey;
    CREATE TABLE deleted_webhooks (
      webhook_id  BIGINT PRIMARY KEY,
      customer_id BIGINT NOT NULL
    );
    ${lowerNextDueFunctionSql(true)}
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ${lowerNextDueFunctionSql(false)}
    DELETE FROM webhook_deliveries d WHERE NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id);
    DELETE FROM list_counts c WHERE c.list = 'webhook_deliveries' AND c.scope = 'webhook'
      AND NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id = c.scope_id);
    ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_webhook_id_fkey FOREIGN KEY (webhook_id) REFERENCES webhooks (id) ON DELETE CASCADE;
    DROP TABLE deleted_webhooks;
  `);
}
