import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { DomainEvent, Outbox } from '@rcs/domain';

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
    if (events.length === 0) return;
    await this.trx('outbox_events').insert(
      events.map((event) => ({
        id: newEventId(),
        customer_id: event.customerId,
        type: event.type,
        data: JSON.stringify(event.data),
        occurred_at: event.occurredAt,
      })),
    );
  }
}
