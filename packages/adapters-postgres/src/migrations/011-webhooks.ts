import type { Knex } from 'knex';

/**
 * Webhook endpoints and their delivery attempts. A delivery row is one attempt at sending one event to one
 * webhook: PENDING while due (next_attempt_at) or being sent (claimed_until, a lease taken before the call and
 * committed, so no transaction stays open across it), then SUCCESS or FAILED; a retry or a redelivery is a new row
 * with the next attempt number. Secrets are stored sealed (AES-256-GCM), never in clear.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE webhooks (
      id                         BIGSERIAL PRIMARY KEY,
      customer_id                BIGINT NOT NULL REFERENCES customers (id),
      url                        TEXT NOT NULL,
      events                     TEXT[] NOT NULL,
      status                     TEXT NOT NULL CHECK (status IN ('ACTIVE', 'PAUSED', 'FAILED')),
      secret_sealed              TEXT NOT NULL,
      secret_tail                TEXT NOT NULL,
      previous_secret_sealed     TEXT,
      previous_secret_expires_at TIMESTAMPTZ,
      last_delivery_at           TIMESTAMPTZ,
      last_delivery_status       TEXT CHECK (last_delivery_status IN ('SUCCESS', 'FAILED')),
      creation_date              TIMESTAMPTZ NOT NULL,
      modification_date          TIMESTAMPTZ NOT NULL,
      version                    INTEGER NOT NULL,
      CHECK ((previous_secret_sealed IS NULL) = (previous_secret_expires_at IS NULL))
    );
    -- The list, and the dispatcher's "webhooks of this customer" (a customer has a handful).
    CREATE INDEX webhooks_customer ON webhooks (customer_id, creation_date DESC, id DESC);

    CREATE TABLE webhook_deliveries (
      id              BIGSERIAL PRIMARY KEY,
      webhook_id      BIGINT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
      customer_id     BIGINT NOT NULL REFERENCES customers (id),
      event_id        TEXT NOT NULL,
      event_type      TEXT NOT NULL,
      attempt         INTEGER NOT NULL CHECK (attempt >= 1),
      status          TEXT NOT NULL CHECK (status IN ('PENDING', 'SUCCESS', 'FAILED')),
      response_code   INTEGER,
      duration_ms     INTEGER,
      failure_reason  TEXT,
      -- The exact body sent, so every attempt of an event sends the same bytes.
      payload         TEXT NOT NULL,
      next_attempt_at TIMESTAMPTZ,
      claimed_until   TIMESTAMPTZ,
      created_at      TIMESTAMPTZ NOT NULL,
      -- A dispatcher or worker running twice fails loudly instead of sending an attempt twice; serves eventId too.
      UNIQUE (webhook_id, event_id, attempt)
    );
    -- The history (fromDate/toDate on created_at, newest first), by status and by event type.
    CREATE INDEX webhook_deliveries_history ON webhook_deliveries (webhook_id, created_at DESC, id DESC);
    CREATE INDEX webhook_deliveries_status ON webhook_deliveries (webhook_id, status, created_at DESC, id DESC);
    CREATE INDEX webhook_deliveries_type ON webhook_deliveries (webhook_id, event_type, created_at DESC, id DESC);
    -- The worker's due claim: PENDING attempts by when they are due (a lapsed lease counts as due).
    CREATE INDEX webhook_deliveries_due ON webhook_deliveries (COALESCE(claimed_until, next_attempt_at)) WHERE status = 'PENDING';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE webhook_deliveries, webhooks');
}
