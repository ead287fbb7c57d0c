import type { Knex } from 'knex';

/**
 * What a receivable's creation writes, cut to what the lists and checks need (issue 21 item 5; bench/README.md,
 * "A creation that asks less of PostgreSQL", has the measurements).
 *
 * Each list scope (customer, account, client, associate) had two indexes, one without and one with status; every
 * creation wrote both, and right after a checkpoint each one whose key lands on a page of its own (an account's,
 * a client's) logs that whole page. The index with status serves both now: a list without status reads it as one
 * ordered range per status, merged (KnexReceivableQueries), which costs a page of each status, whatever the rows.
 * The client's index leaves out receivables without a client, which no list by client can match.
 *
 * Foreign keys the writers already guarantee go (as migration 006 did the outbox's), each a share lock per
 * creation on a row of another table, which writes that row (and logs its page after a checkpoint); on the
 * customer's and the credential's rows, which every concurrent request of a customer locks, it takes a multixact
 * too. The receivable's account and client are read in the issuing transaction and checked to be the customer's
 * (SPEC "Receivable"); its customer and the key's credential are the authenticated caller's; and none of
 * customers, credentials, accounts and clients is ever deleted (disabled or revoked instead).
 *
 * An idempotent request's stored answer is text, which PostgreSQL keeps without checking it is JSON (the service
 * wrote it with JSON.stringify, and sends it back byte for byte).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX receivables_recent, receivables_account, receivables_client, receivables_associate, receivables_client_status;
    CREATE INDEX receivables_client_status ON receivables (customer_id, client_id, status, creation_date DESC, id DESC) WHERE client_id IS NOT NULL;
    ALTER TABLE receivables DROP CONSTRAINT receivables_customer_id_fkey, DROP CONSTRAINT receivables_receivable_account_id_fkey,
      DROP CONSTRAINT receivables_client_id_fkey;
    ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_credential_id_fkey;
    ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE TEXT;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE JSON USING response_body::json;
    ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_credential_id_fkey FOREIGN KEY (credential_id) REFERENCES credentials (id);
    ALTER TABLE receivables ADD CONSTRAINT receivables_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES customers (id),
      ADD CONSTRAINT receivables_receivable_account_id_fkey FOREIGN KEY (receivable_account_id) REFERENCES receivable_accounts (id),
      ADD CONSTRAINT receivables_client_id_fkey FOREIGN KEY (client_id) REFERENCES clients (id);
    DROP INDEX receivables_client_status;
    CREATE INDEX receivables_client_status ON receivables (customer_id, client_id, status, creation_date DESC, id DESC);
    CREATE INDEX receivables_recent ON receivables (customer_id, creation_date DESC, id DESC);
    CREATE INDEX receivables_account ON receivables (customer_id, receivable_account_id, creation_date DESC, id DESC);
    CREATE INDEX receivables_client ON receivables (customer_id, client_id, creation_date DESC, id DESC);
    CREATE INDEX receivables_associate ON receivables (customer_id, associate_id, creation_date DESC, id DESC) WHERE associate_id IS NOT NULL;
  `);
}
