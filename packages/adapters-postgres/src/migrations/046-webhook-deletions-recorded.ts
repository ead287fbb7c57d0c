import type { Knex } from 'knex';

/**
 * Every deletion of a webhook is recorded for the purge of its attempts (034) by the database, whatever deletes
 * it: a version older than 034's code, still running beside a newer one in a rolling upgrade, deleted the row
 * alone, and its attempts were never purged (a PENDING retry among them neither sent nor expired, so its event
 * was never purged either). The webhooks such deletions left attempts of since 034 are recorded once here: their
 * ids walked one index probe each (through webhook_deliveries_history), not the attempts read, which would hold the
 * trigger's lock on webhooks (every delivery's record waits for it) as long as a scan of millions of rows took.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION record_webhook_deletions() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO deleted_webhooks (webhook_id, customer_id) SELECT id, customer_id FROM gone ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$;
    CREATE TRIGGER webhooks_deleted AFTER DELETE ON webhooks REFERENCING OLD TABLE AS gone
      FOR EACH STATEMENT EXECUTE FUNCTION record_webhook_deletions();
    WITH RECURSIVE attempted (webhook_id, customer_id) AS (
      (SELECT webhook_id, customer_id FROM webhook_deliveries ORDER BY webhook_id LIMIT 1)
      UNION ALL
      SELECT next.webhook_id, next.customer_id FROM attempted CROSS JOIN LATERAL (
        SELECT d.webhook_id, d.customer_id FROM webhook_deliveries d WHERE d.webhook_id > attempted.webhook_id ORDER BY d.webhook_id LIMIT 1
      ) next
    )
    INSERT INTO deleted_webhooks (webhook_id, customer_id)
      SELECT a.webhook_id, a.customer_id FROM attempted a WHERE NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id = a.webhook_id)
      ON CONFLICT DO NOTHING;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER webhooks_deleted ON webhooks;
    DROP FUNCTION record_webhook_deletions();
  `);
}
