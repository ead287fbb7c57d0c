import type { Knex } from 'knex';

/**
 * The events' feed (GET /v1/events?sort=feed) follows each event's writing transaction's id, then its seq, and
 * reads only events of transactions older than every one still running (pg_snapshot_xmin): an event not yet
 * readable belongs to a running transaction, whose id is at least that horizon, so it comes after every event a
 * reader was given, and a reader following the feed never passes one (by seq or time alone, an event whose
 * transaction commits after a later one's was passed). pg_current_xact_id() is the top-level transaction's, also
 * inside a savepoint. The events recorded before this read as transaction 0: first, by seq (a constant default
 * rewrites no row). Its index is one more entry per event recorded. Both are left as found when there: an operator
 * whose outbox is too large to index while writers wait builds them beforehand (README "Upgrading").
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE outbox_events ADD COLUMN IF NOT EXISTS txid xid8 NOT NULL DEFAULT '0';
    ALTER TABLE outbox_events ALTER COLUMN txid SET DEFAULT pg_current_xact_id();
    CREATE INDEX IF NOT EXISTS outbox_events_feed ON outbox_events (customer_id, txid, seq);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX outbox_events_feed;
    ALTER TABLE outbox_events DROP COLUMN txid;
  `);
}
