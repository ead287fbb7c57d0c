import type { Knex } from 'knex';

/**
 * Events out: what the webhook dispatcher has still to take, and the events API's indexes.
 *
 * outbox_pending holds the seq of each event no dispatch has taken yet, written by the outbox's own INSERT
 * statement (one statement, so no extra round trip) in the transaction of the change. A dispatcher claims rows of
 * it with FOR UPDATE SKIP LOCKED and deletes them in the transaction that writes the deliveries. Why this shape:
 * - Gap-free by construction: an event's pending row becomes visible when its transaction commits, however long
 *   after later-numbered events that was, and stays until a dispatch commits. A reader that followed seq with a
 *   high-water mark would skip an event whose transaction commits after a later-numbered one (two writers: seq 11
 *   commits before seq 10); tracking pg_snapshot xmin horizons instead would need an index on the writing
 *   transaction's id and would let only one reader work at a time.
 * - A dispatched_at column on outbox_events with a partial index WHERE dispatched_at IS NULL costs one index entry
 *   less per creation, but every dispatch would then UPDATE the event row: a new row version with a new entry in
 *   every index of the table (the column of a partial index's predicate rules out HOT updates), and as many dead
 *   rows for vacuum. Here the event rows are never updated, and a dispatch deletes one narrow row.
 * Cost on the creation path: per event, one small heap row and one entry at the right end of outbox_pending's
 * primary key.
 *
 * The events API (GET /v1/events) lists one customer's events newest first, optionally of one type, within an
 * occurred_at window: each of the two indexes serves one of those shapes, so a page reads the rows it returns (and
 * X-Total-Count counts matching index entries). They are the API's price on the creation path: two index entries
 * per event. Events already stored are pending: none of them was ever sent.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE outbox_pending (seq BIGINT PRIMARY KEY);
    INSERT INTO outbox_pending (seq) SELECT seq FROM outbox_events;
    CREATE INDEX outbox_events_customer_time ON outbox_events (customer_id, occurred_at, seq);
    CREATE INDEX outbox_events_customer_type_time ON outbox_events (customer_id, type, occurred_at, seq);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX outbox_events_customer_type_time;
    DROP INDEX outbox_events_customer_time;
    DROP TABLE outbox_pending;
  `);
}
