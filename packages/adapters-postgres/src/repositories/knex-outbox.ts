import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { DomainEvent, Outbox } from '@rcs/domain';
import { prepared } from './prepared';

/** Rows per INSERT: each column travels as one array parameter, so this only bounds a statement's size. */
const BATCH_ROWS = 5_000;

const INSERT_EVENTS = `INSERT INTO outbox_events (id, customer_id, type, data, occurred_at)
  SELECT id, customer_id, type, data, occurred_at
  FROM unnest(?::text[], ?::bigint[], ?::text[], ?::jsonb[], ?::timestamptz[]) WITH ORDINALITY AS e (id, customer_id, type, data, occurred_at, n)
  ORDER BY n`;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** evt_ plus 24 base62 characters (about 143 random bits): unique without coordination between instances. */
export function newEventId(): string {
  const bytes = randomBytes(24);
  let id = 'evt_';
  for (const byte of bytes) id += ALPHABET[byte % 62];
  return id;
}

export class KnexOutbox implements Outbox {
  constructor(private readonly trx: Knex.Transaction) {}

  async record(events: readonly DomainEvent[]): Promise<void> {
    // One statement text for any number of events (arrays, not a VALUES row each), so it is prepared once per
    // connection; in batches so a settlement chunk's tens of thousands of events do not make one huge statement.
    // All batches run in the caller's transaction, so they still commit or roll back together.
    for (let start = 0; start < events.length; start += BATCH_ROWS) {
      const batch = events.slice(start, start + BATCH_ROWS);
      await prepared(this.trx, 'outbox_events.insert', INSERT_EVENTS, [
        batch.map(() => newEventId()),
        batch.map((event) => event.customerId),
        batch.map((event) => event.type),
        batch.map((event) => JSON.stringify(event.data)),
        batch.map((event) => event.occurredAt),
      ]);
    }
  }
}
