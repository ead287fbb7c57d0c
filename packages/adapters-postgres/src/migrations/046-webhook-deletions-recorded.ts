import type { Knex } from 'knex';

/**
 * Every deletion of a webhook is recorded for the purge of its attempts (034) by the database, whatever deletes
 * it: a version older than 034's code, still running beside a newer one in a rolling upgrade, deleted the row
 * alone, and its attempts were never purged (a PENDING retry among them neither sent nor expired, so its event
 * was never purged either). The attempts such deletions left since 034 are recorded once here, by a scan of the
 * attempts made with the migration.
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
    INSERT INTO deleted_webhooks (webhook_id, customer_id)
      SELECT DISTINCT d.webhook_id, d.customer_id FROM webhook_deliveries d
      WHERE NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id)
      ON CONFLICT DO NOTHING;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER webhooks_deleted ON webhooks;
    DROP FUNCTION record_webhook_deletions();
  `);
}
