import type { Knex } from 'knex';

const REJECTED = 'rejected by the provider: ';

/**
 * Why a DISABLED receivable account is disabled, told to the customer (responses, events): the provider's refusal
 * with its words, retries exhausted, or the customer. Accounts already DISABLED get theirs from the note the
 * provisioning worker left (it wrote "rejected by the provider: ..." or "gave up after ..."; the customer's DELETE
 * left neither), and a check keeps reason and status together from then on.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE receivable_accounts
      ADD COLUMN disabled_reason TEXT CHECK (disabled_reason IN ('PROVIDER_REJECTED', 'PROVISIONING_RETRIES_EXHAUSTED', 'DISABLED_BY_CUSTOMER')),
      ADD COLUMN disabled_message TEXT
  `);
  await knex.raw(
    `
    UPDATE receivable_accounts SET
      disabled_reason = CASE
        WHEN starts_with(last_provisioning_error, :rejected) THEN 'PROVIDER_REJECTED'
        WHEN starts_with(last_provisioning_error, 'gave up after ') THEN 'PROVISIONING_RETRIES_EXHAUSTED'
        ELSE 'DISABLED_BY_CUSTOMER'
      END,
      disabled_message = CASE WHEN starts_with(last_provisioning_error, :rejected) THEN substr(last_provisioning_error, length(:rejected) + 1) END
    WHERE status = 'DISABLED'
  `,
    { rejected: REJECTED },
  );
  await knex.raw(
    `ALTER TABLE receivable_accounts ADD CONSTRAINT receivable_accounts_disabled_reason CHECK ((status = 'DISABLED') = (disabled_reason IS NOT NULL))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE receivable_accounts DROP COLUMN disabled_reason, DROP COLUMN disabled_message');
}
