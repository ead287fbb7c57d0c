import type { Knex } from 'knex';

/**
 * Transfers out of current accounts. The destination is copied into the row (a deleted recipient never changes a
 * past transfer); contact_id only remembers which recipient it came from, so it has no foreign key. List indexes
 * lead with customer_id and end with the list order (creation_date DESC, id DESC), as for receivables. The
 * worker's queue is a partial index over the transfers it may take (PENDING, or SCHEDULED by their day), ordered
 * by day, so a pass reads only what is due however many transfers ever finished.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE transfers (
      id                          BIGSERIAL PRIMARY KEY,
      customer_id                 BIGINT NOT NULL REFERENCES customers (id),
      type                        TEXT NOT NULL CHECK (type IN ('OUTGOING_TRANSFER', 'INTERNAL_TRANSFER')),
      status                      TEXT NOT NULL CHECK (status IN
                                    ('SCHEDULED', 'PENDING_APPROVAL', 'PENDING', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'CANCELLED')),
      source_account_id           BIGINT NOT NULL REFERENCES current_accounts (id),
      -- Integer minor units (cents): exact.
      amount_minor                BIGINT NOT NULL CHECK (amount_minor > 0),
      currency_code               TEXT NOT NULL,
      destination_cbu_cvu         TEXT CHECK (destination_cbu_cvu ~ '^[0-9]{22}$'),
      destination_alias           TEXT,
      destination_account_id      BIGINT REFERENCES current_accounts (id),
      counter_party_name          TEXT,
      counter_party_tax_id        TEXT,
      contact_id                  BIGINT,
      description                 TEXT,
      external_id                 TEXT,
      scheduled_date              DATE,
      execution_date              TIMESTAMPTZ,
      failure_reason              TEXT,
      created_by_credential_id    BIGINT NOT NULL REFERENCES credentials (id),
      approved_by_credential_id   BIGINT REFERENCES credentials (id),
      rejected_by_credential_id   BIGINT REFERENCES credentials (id),
      -- The worker's lease: who holds the transfer while paying it, and until when.
      attempts                    INTEGER NOT NULL DEFAULT 0,
      claimed_until               TIMESTAMPTZ,
      claimed_by                  TEXT,
      creation_date               TIMESTAMPTZ NOT NULL,
      modification_date           TIMESTAMPTZ NOT NULL,
      version                     INTEGER NOT NULL,
      CHECK ((type = 'INTERNAL_TRANSFER') = (destination_account_id IS NOT NULL)),
      CHECK (type = 'INTERNAL_TRANSFER' OR destination_cbu_cvu IS NOT NULL OR destination_alias IS NOT NULL),
      CHECK ((status = 'FAILED') = (failure_reason IS NOT NULL))
    );
    CREATE INDEX transfers_recent ON transfers (customer_id, creation_date DESC, id DESC);
    CREATE INDEX transfers_type ON transfers (customer_id, type, creation_date DESC, id DESC);
    CREATE INDEX transfers_status ON transfers (customer_id, status, creation_date DESC, id DESC);
    CREATE INDEX transfers_source_account ON transfers (customer_id, source_account_id, creation_date DESC, id DESC);
    CREATE INDEX transfers_external_id ON transfers (customer_id, external_id) WHERE external_id IS NOT NULL;
    CREATE INDEX transfers_due ON transfers (scheduled_date NULLS FIRST, id) WHERE status IN ('PENDING', 'SCHEDULED');
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE transfers');
}
