import type { Knex } from 'knex';

/**
 * Every secret a rotation replaced keeps signing for its 24 h of grace (CONTRACT), not only the last one: the
 * replaced secrets go to one JSON list, newest first, each {sealed, expiresAt}, at most 4 (the domain bounds it:
 * MAX_SIGNING_SECRETS). A row holds them whole, read and written with the webhook, never queried by.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE webhooks ADD COLUMN previous_secrets JSONB NOT NULL DEFAULT '[]';
    UPDATE webhooks
       SET previous_secrets = jsonb_build_array(jsonb_build_object('sealed', previous_secret_sealed, 'expiresAt', previous_secret_expires_at))
     WHERE previous_secret_sealed IS NOT NULL;
    ALTER TABLE webhooks DROP COLUMN previous_secret_sealed, DROP COLUMN previous_secret_expires_at;
  `);
}

/** Back to one previous secret: the newest replaced one. */
export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE webhooks ADD COLUMN previous_secret_sealed TEXT, ADD COLUMN previous_secret_expires_at TIMESTAMPTZ,
      ADD CHECK ((previous_secret_sealed IS NULL) = (previous_secret_expires_at IS NULL));
    UPDATE webhooks
       SET previous_secret_sealed = previous_secrets->0->>'sealed', previous_secret_expires_at = (previous_secrets->0->>'expiresAt')::timestamptz
     WHERE jsonb_array_length(previous_secrets) > 0;
    ALTER TABLE webhooks DROP COLUMN previous_secrets;
  `);
}
