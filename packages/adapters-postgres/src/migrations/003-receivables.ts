import type { Knex } from 'knex';

/**
 * Receivables and route settlements. Indexes lead with customer_id and end with the list order (creation_date
 * DESC, id DESC), so a filtered page is an index range scan even at a million receivables per customer.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE route_settlements (
      id                BIGSERIAL PRIMARY KEY,
      customer_id       BIGINT NOT NULL REFERENCES customers (id),
      route_code        TEXT NOT NULL,
      date              DATE NOT NULL,
      associate_id      BIGINT NOT NULL REFERENCES associates (id),
      creation_date     TIMESTAMPTZ NOT NULL,
      modification_date TIMESTAMPTZ NOT NULL,
      -- A route code belongs to one date of one customer.
      UNIQUE (customer_id, route_code)
    );
    CREATE INDEX route_settlements_recent ON route_settlements (customer_id, creation_date DESC, id DESC);
    CREATE INDEX route_settlements_associate ON route_settlements (customer_id, associate_id, date);

    CREATE TABLE receivables (
      id                    BIGSERIAL PRIMARY KEY,
      customer_id           BIGINT NOT NULL REFERENCES customers (id),
      receivable_account_id BIGINT NOT NULL REFERENCES receivable_accounts (id),
      client_id             BIGINT REFERENCES clients (id),
      associate_id          BIGINT REFERENCES associates (id),
      -- Integer minor units (cents): exact, and never negative; the sign comes from the type.
      amount_minor          BIGINT NOT NULL CHECK (amount_minor > 0),
      currency_code         TEXT NOT NULL,
      receivable_type       TEXT NOT NULL CHECK (receivable_type IN
                              ('INVOICE', 'DEBT', 'CREDIT_NOTE', 'MISSING_PRODUCT', 'RETURN_PRODUCT', 'BROKEN_PRODUCT', 'ADJUSTMENT', 'RETENTION')),
      status                TEXT NOT NULL CHECK (status IN ('PENDING', 'PAID', 'SETTLED', 'EXPIRED', 'DISABLED')),
      legal_number          TEXT,
      description           TEXT,
      external_routing_code TEXT,
      issue_date            DATE,
      due_date              DATE,
      receivable_date       DATE NOT NULL,
      parent_receivable_id  BIGINT REFERENCES receivables (id),
      attachment_uri        TEXT,
      invoice_data          JSONB,
      route_settlement_id   BIGINT REFERENCES route_settlements (id),
      creation_date         TIMESTAMPTZ NOT NULL,
      modification_date     TIMESTAMPTZ NOT NULL,
      version               INTEGER NOT NULL
    );
    CREATE UNIQUE INDEX receivables_legal_number ON receivables (customer_id, legal_number) WHERE legal_number IS NOT NULL;
    CREATE INDEX receivables_recent ON receivables (customer_id, creation_date DESC, id DESC);
    CREATE INDEX receivables_account_status ON receivables (customer_id, receivable_account_id, status, creation_date DESC, id DESC);
    CREATE INDEX receivables_status ON receivables (customer_id, status, creation_date DESC, id DESC);
    CREATE INDEX receivables_client ON receivables (customer_id, client_id, creation_date DESC, id DESC);
    CREATE INDEX receivables_associate ON receivables (customer_id, associate_id, creation_date DESC, id DESC) WHERE associate_id IS NOT NULL;
    CREATE INDEX receivables_due_date ON receivables (customer_id, due_date) WHERE due_date IS NOT NULL;
    CREATE INDEX receivables_issue_date ON receivables (customer_id, issue_date) WHERE issue_date IS NOT NULL;
    CREATE INDEX receivables_amount ON receivables (customer_id, amount_minor);
    CREATE INDEX receivables_routing_code ON receivables (customer_id, external_routing_code) WHERE external_routing_code IS NOT NULL;
    CREATE INDEX receivables_parent ON receivables (parent_receivable_id) WHERE parent_receivable_id IS NOT NULL;
    CREATE INDEX receivables_route_settlement ON receivables (route_settlement_id) WHERE route_settlement_id IS NOT NULL;
    -- The expiry job's queue, across customers.
    CREATE INDEX receivables_expiry ON receivables (due_date) WHERE status = 'PENDING';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE receivables, route_settlements');
}
