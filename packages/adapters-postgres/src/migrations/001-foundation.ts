import type { Knex } from 'knex';

/**
 * Tenancy, credentials, current accounts, clients, associates, idempotency and the outbox. Every tenant-owned
 * table carries customer_id leading its indexes; global lookups (a credential by clientId, an account by CVU)
 * get their own.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    -- Receivable and current accounts draw ids from this one sequence, so an id names one account of either kind.
    CREATE SEQUENCE account_id_seq;

    CREATE TABLE customers (
      id               BIGSERIAL PRIMARY KEY,
      name             TEXT NOT NULL UNIQUE,
      approval_control BOOLEAN NOT NULL DEFAULT FALSE,
      creation_date    TIMESTAMPTZ NOT NULL
    );

    CREATE TABLE credentials (
      id            BIGSERIAL PRIMARY KEY,
      customer_id   BIGINT NOT NULL REFERENCES customers (id),
      client_id     TEXT NOT NULL UNIQUE,
      secret_hash   TEXT NOT NULL,
      scopes        TEXT[] NOT NULL,
      status        TEXT NOT NULL CHECK (status IN ('ACTIVE', 'REVOKED')),
      creation_date TIMESTAMPTZ NOT NULL
    );
    CREATE INDEX credentials_customer ON credentials (customer_id);

    CREATE TABLE current_accounts (
      id                   BIGINT PRIMARY KEY DEFAULT nextval('account_id_seq'),
      customer_id          BIGINT NOT NULL REFERENCES customers (id),
      account_type         TEXT NOT NULL CHECK (account_type IN ('MAIN', 'SUB')),
      cvu                  TEXT NOT NULL UNIQUE,
      alias                TEXT NOT NULL UNIQUE,
      currency_code        TEXT NOT NULL,
      status               TEXT NOT NULL CHECK (status IN ('ACTIVE', 'DISABLED')),
      last_settlement_date TIMESTAMPTZ,
      creation_date        TIMESTAMPTZ NOT NULL,
      modification_date    TIMESTAMPTZ NOT NULL
    );
    CREATE INDEX current_accounts_customer ON current_accounts (customer_id, creation_date DESC, id DESC);

    CREATE TABLE clients (
      id                       BIGSERIAL PRIMARY KEY,
      customer_id              BIGINT NOT NULL REFERENCES customers (id),
      business_name            TEXT NOT NULL,
      tax_id                   CHAR(11) NOT NULL,
      document_type            TEXT NOT NULL CHECK (document_type IN ('CUIT', 'CUIL')),
      email                    TEXT,
      branch_external_code     TEXT,
      branch_description       TEXT,
      branch_reference_address TEXT,
      external_id              TEXT,
      creation_date            TIMESTAMPTZ NOT NULL,
      modification_date        TIMESTAMPTZ NOT NULL,
      version                  INTEGER NOT NULL
    );
    -- The upsert identity; a client without a branch is the '' branch.
    CREATE UNIQUE INDEX clients_identity
      ON clients (customer_id, document_type, tax_id, COALESCE(branch_external_code, ''));
    CREATE INDEX clients_recent ON clients (customer_id, creation_date DESC, id DESC);
    CREATE INDEX clients_tax_id ON clients (customer_id, tax_id);
    CREATE INDEX clients_external_id ON clients (customer_id, external_id) WHERE external_id IS NOT NULL;

    CREATE TABLE associates (
      id                  BIGSERIAL PRIMARY KEY,
      customer_id         BIGINT NOT NULL REFERENCES customers (id),
      type                TEXT NOT NULL,
      name                TEXT NOT NULL,
      last_name           TEXT NOT NULL,
      tax_id              CHAR(11) NOT NULL,
      document_number     TEXT NOT NULL,
      email               TEXT NOT NULL,
      phone               TEXT NOT NULL,
      address             TEXT,
      parent_associate_id BIGINT REFERENCES associates (id),
      status              TEXT NOT NULL CHECK (status IN ('ACTIVE', 'DISABLED')),
      creation_date       TIMESTAMPTZ NOT NULL,
      modification_date   TIMESTAMPTZ NOT NULL,
      version             INTEGER NOT NULL,
      UNIQUE (customer_id, tax_id)
    );
    CREATE INDEX associates_recent ON associates (customer_id, status, creation_date DESC, id DESC);
    CREATE INDEX associates_document ON associates (customer_id, document_number);
    CREATE INDEX associates_parent ON associates (customer_id, parent_associate_id) WHERE parent_associate_id IS NOT NULL;

    -- One row per (credential, key). Written in the transaction of the operation it guards, so the key, the
    -- change and its events commit together; response_* stay NULL only inside that uncommitted transaction.
    CREATE TABLE idempotency_keys (
      credential_id     BIGINT NOT NULL REFERENCES credentials (id),
      key               TEXT NOT NULL,
      fingerprint       TEXT NOT NULL,
      response_status   INTEGER,
      response_body     JSONB,
      response_location TEXT,
      created_at        TIMESTAMPTZ NOT NULL,
      expires_at        TIMESTAMPTZ NOT NULL,
      PRIMARY KEY (credential_id, key)
    );
    CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);

    -- Transactional outbox: events commit or roll back with the change that caused them.
    CREATE TABLE outbox_events (
      seq         BIGSERIAL PRIMARY KEY,
      id          TEXT NOT NULL UNIQUE,
      customer_id BIGINT NOT NULL REFERENCES customers (id),
      type        TEXT NOT NULL,
      data        JSONB NOT NULL,
      occurred_at TIMESTAMPTZ NOT NULL
    );
    CREATE INDEX outbox_events_customer ON outbox_events (customer_id, seq);

    -- Service-wide settings kept in the database so every instance agrees (the sandbox JWT secret).
    CREATE TABLE settings (
      key   TEXT PRIMARY KEY,
      value TEXT NOT NULL
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE settings, outbox_events, idempotency_keys, associates, clients, current_accounts, credentials, customers;
    DROP SEQUENCE account_id_seq;
  `);
}
