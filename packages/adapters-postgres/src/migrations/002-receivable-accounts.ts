import type { Knex } from 'knex';

/** Receivable accounts, their provisioning state, and the customer settings that shape them. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE customers
      ADD COLUMN enabled_owner_types TEXT[] NOT NULL DEFAULT ARRAY['CLIENT', 'ASSOCIATE', 'CLIENT_AND_ASSOCIATE'],
      ADD COLUMN alias_template TEXT NOT NULL DEFAULT 'cta.{id:7}';

    CREATE TABLE receivable_accounts (
      id                      BIGINT PRIMARY KEY DEFAULT nextval('account_id_seq'),
      customer_id             BIGINT NOT NULL REFERENCES customers (id),
      client_id               BIGINT REFERENCES clients (id),
      associate_id            BIGINT REFERENCES associates (id),
      currency_code           TEXT NOT NULL,
      status                  TEXT NOT NULL CHECK (status IN ('PROVISIONING', 'ACTIVE', 'DISABLED')),
      cvu                     TEXT UNIQUE,
      alias                   TEXT UNIQUE,
      provisioning_attempts   INTEGER NOT NULL DEFAULT 0,
      next_attempt_at         TIMESTAMPTZ,
      -- A provisioning worker's lease: while in the future, other workers leave the row alone.
      locked_until            TIMESTAMPTZ,
      last_provisioning_error TEXT,
      creation_date           TIMESTAMPTZ NOT NULL,
      modification_date       TIMESTAMPTZ NOT NULL,
      version                 INTEGER NOT NULL,
      CHECK (client_id IS NOT NULL OR associate_id IS NOT NULL)
    );
    -- One account per (client, associate, currency) per customer; a missing party is 0.
    CREATE UNIQUE INDEX receivable_accounts_owner
      ON receivable_accounts (customer_id, COALESCE(client_id, 0), COALESCE(associate_id, 0), currency_code);
    CREATE INDEX receivable_accounts_recent ON receivable_accounts (customer_id, status, creation_date DESC, id DESC);
    CREATE INDEX receivable_accounts_client ON receivable_accounts (customer_id, client_id) WHERE client_id IS NOT NULL;
    CREATE INDEX receivable_accounts_associate ON receivable_accounts (customer_id, associate_id) WHERE associate_id IS NOT NULL;
    -- The provisioning worker's queue.
    CREATE INDEX receivable_accounts_provisioning ON receivable_accounts (next_attempt_at) WHERE status = 'PROVISIONING';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE receivable_accounts;
    ALTER TABLE customers DROP COLUMN enabled_owner_types, DROP COLUMN alias_template;
  `);
}
