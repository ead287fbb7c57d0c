import { randomBytes } from 'node:crypto';
import { jsonText, type DomainEvent, type Outbox } from '@rcs/domain';
import type { TransactionWrites } from './transaction-writes';

/** Rows per INSERT: this only bounds a statement's size. */
const BATCH_ROWS = 5_000;

/**
 * A batch travels as one text parameter per column, its values joined by the record separator (U+001E), which
 * none of them holds raw: JSON.stringify escapes every control character, and ids, types, numbers and ISO
 * timestamps have none. PostgreSQL splits them back and only checks each payload is JSON (a json column, kept as
 * text): the jsonb array this replaced made it build every payload's binary form, about 60 % of the insert's
 * database time. ORDER BY n: seq follows the order of the events. Each event is pending for the webhook dispatcher from the same
 * statement on (migration 012 says why a pending row).
 */
const SEPARATOR = '\x1e';

/** Parameter `n` split back into an array of `type`. */
const splitColumn = (n: number, type: string) => `string_to_array($${n}, chr(${SEPARATOR.charCodeAt(0)}))::${type}[]`;

export const INSERT_EVENTS = `WITH recorded AS (INSERT INTO outbox_events (id, customer_id, type, data, occurred_at)
  SELECT id, customer_id, type, data, occurred_at
  FROM unnest(${splitColumn(1, 'text')}, ${splitColumn(2, 'bigint')}, ${splitColumn(3, 'text')}, ${splitColumn(4, 'json')}, ${splitColumn(5, 'timestamptz')})
    WITH ORDINALITY AS e (id, customer_id, type, data, occurred_at, n)
  ORDER BY n
  RETURNING seq)
  INSERT INTO outbox_pending (seq) SELECT seq FROM recorded`;

/** The parameters of INSERT_EVENTS for `events`, under `ids`. */
export function eventColumns(events: readonly DomainEvent[], ids: readonly string[]): string[] {
  const column = (value: (event: DomainEvent) => string | number) => events.map(value).join(SEPARATOR);
  return [
    ids.join(SEPARATOR),
    column((event) => event.customerId),
    column((event) => event.type),
    column((event) => jsonText(event.data)!),
    column((event) => event.occurredAt.toISOString()),
  ];
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const TIME_CHARACTERS = 9;
const RANDOM_CHARACTERS = 15;

const base62 = (value: number, width: number): string => {
  let text = '';
  for (let rest = value; text.length < width; rest = Math.floor(rest / 62)) text = ALPHABET[rest % 62] + text;
  return text;
};

/** Bytes drawn per call to randomBytes; node's randomUUID keeps such a pool too. */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let drawn = 0;

/** `size` random bytes from the pool: a randomBytes call per creation cost more CPU than the rest of its event id. */
function randomChunk(size: number): Buffer {
  if (size > POOL_BYTES) return randomBytes(size);
  if (drawn + size > pool.length) {
    pool = randomBytes(POOL_BYTES);
    drawn = 0;
  }
  drawn += size;
  return pool.subarray(drawn - size, drawn);
}

/**
 * `count` ids of evt_ plus 24 base62 characters: the creation millisecond (9 characters, fixed width) then 15
 * random ones (about 89 bits), unique without coordination between instances. The time prefix makes new ids
 * neighbours in the unique index, so inserting a million of them touches a few index pages, not a million.
 */
export function newEventIds(count: number, nowMs = Date.now()): string[] {
  const prefix = `evt_${base62(nowMs, TIME_CHARACTERS)}`;
  const bytes = randomChunk(RANDOM_CHARACTERS * count);
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
    // One statement text for any number of events (a parameter per column, not a VALUES row each), so it is
    // prepared once per connection; in batches so a settlement chunk's tens of thousands of events do not make
    // one huge statement. All batches run in the caller's transaction, so they still commit or roll back
    // together; nobody reads their result, so they go out without a round trip each.
    for (let start = 0; start < events.length; start += BATCH_ROWS) {
      const batch = events.slice(start, start + BATCH_ROWS);
      await this.writes.send('outbox_events.insert', INSERT_EVENTS, eventColumns(batch, newEventIds(batch.length)));
    }
  }
}
