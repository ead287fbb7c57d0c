import type { Knex } from 'knex';

/**
 * The ledger: immutable movements, and account balances kept in the same transaction as the movement that
 * changes them. Settlements sweep receivable accounts into current accounts in pairs of movements.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE receivable_accounts ADD COLUMN balance_minor BIGINT NOT NULL DEFAULT 0 CHECK (balance_minor >= 0);
    ALTER TABLE current_accounts ADD COLUMN balance_minor BIGINT NOT NULL DEFAULT 0 CHECK (balance_minor >= 0);
    -- The settlement cycle's queue: accounts holding collected money not yet swept.
    CREATE INDEX receivable_accounts_unsettled ON receivable_accounts (id) WHERE balance_minor > 0;

    CREATE TABLE settlements (
      id                    BIGSERIAL PRIMARY KEY,
      customer_id           BIGINT NOT NULL REFERENCES customers (id),
      receivable_account_id BIGINT NOT NULL REFERENCES receivable_accounts (id),
      current_account_id    BIGINT NOT NULL REFERENCES current_accounts (id),
      amount_minor          BIGINT NOT NULL CHECK (amount_minor > 0),
      currency_code         TEXT NOT NULL,
      settlement_date       TIMESTAMPTZ NOT NULL,
      creation_date         TIMESTAMPTZ NOT NULL
    );
    CREATE INDEX settlements_recent ON settlements (customer_id, creation_date DESC, id DESC);
    CREATE INDEX settlements_account ON settlements (customer_id, receivable_account_id, creation_date DESC, id DESC);

    ALTER TABLE receivables ADD COLUMN settlement_id BIGINT REFERENCES settlements (id);
    CREATE INDEX receivables_settlement ON receivables (settlement_id) WHERE settlement_id IS NOT NULL;

    CREATE TABLE movements (
      id                  BIGSERIAL PRIMARY KEY,
      customer_id         BIGINT NOT NULL REFERENCES customers (id),
      -- A receivable or a current account: both draw ids from account_id_seq.
      account_id          BIGINT NOT NULL,
      account_kind        TEXT NOT NULL CHECK (account_kind IN ('RECEIVABLE', 'CURRENT')),
      movement_type       TEXT NOT NULL CHECK (movement_type IN ('CREDIT', 'DEBIT')),
      operation_type      TEXT NOT NULL,
      subtype             TEXT,
      amount_minor        BIGINT NOT NULL CHECK (amount_minor > 0),
      currency_code       TEXT NOT NULL,
      counterparty_name   TEXT,
      counterparty_tax_id TEXT,
      settlement_id       BIGINT REFERENCES settlements (id),
      movement_date       TIMESTAMPTZ NOT NULL
    );
    CREATE INDEX movements_account ON movements (customer_id, account_id, movement_date DESC, id DESC);
    -- A settlement moves its money once: one SETTLEMENT_OUT and one SETTLEMENT_IN, never more.
    CREATE UNIQUE INDEX movements_settlement_side ON movements (settlement_id, account_kind) WHERE settlement_id IS NOT NULL;

    -- Ledger rows are facts: a correction is a new row, never an edit.
    CREATE FUNCTION movements_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'movements are immutable: append a correcting movement instead';
    END $$;
    CREATE TRIGGER movements_immutable BEFORE UPDATE OR DELETE ON movements
      FOR EACH ROW EXECUTE FUNCTION movements_are_immutable();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE movements;
    DROP FUNCTION movements_are_immutable();
    ALTER TABLE receivables DROP COLUMN settlement_id;
    DROP TABLE settlements;
    ALTER TABLE current_accounts DROP COLUMN balance_minor;
    ALTER TABLE receivable_accounts DROP COLUMN balance_minor;
  `);
}
