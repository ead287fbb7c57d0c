import { randomBytes } from 'node:crypto';
import type { DomainEvent, Outbox } from '@rcs/domain';
import type { TransactionWrites } from './transaction-writes';

/** Rows per INSERT: the batch travels as one JSON parameter, so this only bounds a statement's size. */
const BATCH_ROWS = 5_000;

const INSERT_EVENTS = `INSERT INTO outbox_events (id, customer_id, type, data, occurred_at)
  SELECT id, customer_id, type, data, occurred_at
  FROM ROWS FROM (jsonb_to_recordset(?::jsonb) AS (id text, customer_id bigint, type text, data jsonb, occurred_at timestamptz))
    WITH ORDINALITY AS e (id, customer_id, type, data, occurred_at, n)
  ORDER BY n`;

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const TIME_CHARACTERS = 9;
const RANDOM_CHARACTERS = 15;

const base62 = (value: number, width: number): string => {
  let text = '';
  for (let rest = value; text.length < width; rest = Math.floor(rest / 62)) text = ALPHABET[rest % 62] + text;
  return text;
};

/**
 * `count` ids of evt_ plus 24 base62 characters: the creation millisecond (9 characters, fixed width) then 15
 * random ones (about 89 bits), unique without coordination between instances. The time prefix makes new ids
 * neighbours in the unique index, so inserting a million of them touches a few index pages, not a million.
 */
export function newEventIds(count: number, nowMs = Date.now()): string[] {
  const prefix = `evt_${base62(nowMs, TIME_CHARACTERS)}`;
  const bytes = randomBytes(RANDOM_CHARACTERS * count);
  const ids: string[] = [];
  for (let start = 0; start < bytes.length; start += RANDOM_CHARACTERS) {
    let id = prefix;
    // 256 % 62 leaves a slight bias towards the first characters; with 89 bits it costs nothing that matters.
    for (let i = start; i < start + RANDOM_CHARACTERS; i++) id += ALPHABET[bytes[i] % 62];
    ids.push(id);
  }
  return ids;
}

export class KnexOutbox implements Outbox {
  constructor(private readonly writes: TransactionWrites) {}

  async record(events: readonly DomainEvent[]): Promise<void> {
    // One statement text for any number of events (a JSON array, not a VALUES row each), so it is prepared once
    // per connection and serialised in one native JSON.stringify; in batches so a settlement chunk's tens of
    // thousands of events do not make one huge statement. All batches run in the caller's transaction, so they
    // still commit or roll back together; nobody reads their result, so they go out without a round trip each.
    for (let start = 0; start < events.length; start += BATCH_ROWS) {
      const batch = events.slice(start, start + BATCH_ROWS);
      const ids = newEventIds(batch.length);
      const rows = batch.map((event, i) => ({ id: ids[i], customer_id: event.customerId, type: event.type, data: event.data, occurred_at: event.occurredAt }));
      await this.writes.send('outbox_events.insert', INSERT_EVENTS, [JSON.stringify(rows)]);
    }
  }
}
