import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { DomainEvent, Outbox } from '@rcs/domain';

/** Rows per INSERT: 5 parameters each, far below PostgreSQL's 65,535. */
const BATCH_ROWS = 1_000;

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
    // In batches: a statement carries at most 65,535 parameters, and a settlement chunk can emit tens of thousands
    // of events. All batches run in the caller's transaction, so they still commit or roll back together.
    for (let start = 0; start < events.length; start += BATCH_ROWS) {
      await this.trx('outbox_events').insert(
        events.slice(start, start + BATCH_ROWS).map((event) => ({
          id: newEventId(),
          customer_id: event.customerId,
          type: event.type,
          data: JSON.stringify(event.data),
          occurred_at: event.occurredAt,
        })),
      );
    }
  }
}
