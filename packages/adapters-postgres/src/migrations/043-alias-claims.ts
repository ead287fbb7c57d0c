import type { Knex } from 'knex';

/**
 * Claims of alias changes in flight (ReceivableAccountRepository.claimAliasChange): a row while a request registers
 * an account's new alias at the banking provider and stores it, deleted when it ends. A row left past its time (its
 * request died between the two) is replaced by the account's next claim.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE alias_claims (
      account_id    BIGINT PRIMARY KEY REFERENCES receivable_accounts (id) ON DELETE CASCADE,
      claim         TEXT NOT NULL,
      claimed_until TIMESTAMPTZ NOT NULL
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE alias_claims');
}
