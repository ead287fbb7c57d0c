import type { Knex } from 'knex';
import {
  feedPositionParts,
  ValidationError,
  type EventFeed,
  type EventFeedFilter,
  type EventFeedPage,
  type EventListFilter,
  type EventQueries,
  type EventType,
  type FeedPosition,
  type Page,
  type PageRequest,
  type PurgeBatch,
  type PurgePosition,
  type StoredEvent,
} from '@rcs/domain';
import { FEED_SERVERS_SQL } from '../event-feed-server';
import { maintainedTotal, type CountedList } from './list-counts';
import { fetchPage, rowCount, whereOneValue } from './paging';
import { prepared } from './prepared';

interface EventRow {
  id: string;
  customer_id: string;
  type: EventType;
  /** A json column: the driver parses it. */
  data: Record<string, unknown>;
  occurred_at: Date;
}

const toEvent = (row: EventRow): StoredEvent => ({
  id: row.id,
  customerId: Number(row.customer_id),
  type: row.type,
  occurredAt: row.occurred_at,
  data: row.data,
});

/** The outbox as the dispatcher and the purge see it (migration 012 says why pending events have a table). */
export class KnexEventFeed implements EventFeed {
  constructor(private readonly trx: Knex.Transaction) {}

  async claimPending(limit: number): Promise<readonly StoredEvent[]> {
    // SKIP LOCKED: events another dispatch holds are left to it, so instances share the work instead of queueing.
    // The pending rows are deleted here but stay until this transaction commits: a rollback hands them back. Deleted
    // by primary key under any plan: matched by IN, the generic plan of this prepared statement hashes the claimed
    // seqs and scans the whole backlog against them (613 ms a claim of 500 behind a million pending).
    const { rows } = await prepared<EventRow>(
      this.trx,
      'outbox_pending.claim',
      `WITH claimed AS (
         DELETE FROM outbox_pending WHERE seq = ANY(ARRAY(SELECT seq FROM outbox_pending ORDER BY seq LIMIT ? FOR UPDATE SKIP LOCKED))
         RETURNING seq
       )
       SELECT e.id, e.customer_id, e.type, e.data, e.occurred_at FROM outbox_events e JOIN claimed ON claimed.seq = e.seq ORDER BY e.seq`,
      [limit],
    );
    return rows.map(toEvent);
  }

  async purgeDispatched(before: Date, after: PurgePosition | undefined, limit: number): Promise<PurgeBatch> {
    // Walks the outbox in seq order, which is the order events occurred in but for the length of a transaction, and
    // stops at the first recent event: a pass reads the rows it deletes plus the old ones still pending, never the
    // recent bulk of the table. An old event recorded after a recent one waits for a later day's purge.
    // Dispatched: no longer pending, and no attempt of it left to make (each delivered, failed for good or expired).
    // Its finished attempts go with it, so the delivery history does not only grow either.
    // First the old events, locked: one a redelivery holds (hold) is skipped, left to a later pass, and none is held
    // once locked. Then, on a snapshot taken after the locks, those no attempt is left to make are deleted with their
    // attempts: an attempt a redelivery committed before the locks is seen, and none can be stored after them.
    const { rows } = await prepared<{ locked: string[]; examined: string; last_seq: string | null; reached_recent: boolean | null }>(
      this.trx,
      'outbox_events.purge_lock',
      `WITH examined AS (
         SELECT seq, occurred_at FROM outbox_events WHERE seq > ? ORDER BY seq LIMIT ?
       ), locked AS (
         SELECT e.seq FROM outbox_events e JOIN examined x ON x.seq = e.seq WHERE x.occurred_at < ? FOR UPDATE OF e SKIP LOCKED
       )
       SELECT ARRAY(SELECT seq FROM locked) AS locked, (SELECT count(*) FROM examined) AS examined,
              (SELECT max(seq) FROM examined) AS last_seq, (SELECT bool_or(occurred_at >= ?) FROM examined) AS reached_recent`,
      [after ?? 0, limit, before, before],
    );
    const [result] = rows;
    const purged = await prepared<{ purged: string }>(
      this.trx,
      'outbox_events.purge_locked',
      `WITH purged AS (
         DELETE FROM outbox_events e
         WHERE e.seq = ANY(?::bigint[]) AND NOT EXISTS (SELECT 1 FROM outbox_pending p WHERE p.seq = e.seq)
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'PENDING')
         RETURNING e.id
       ), purged_attempts AS (
         DELETE FROM webhook_deliveries d USING purged WHERE d.event_id = purged.id
       )
       SELECT count(*) AS purged FROM purged`,
      [result.locked],
    );
    const more = Number(result.examined) === limit && result.reached_recent === false;
    return { purged: Number(purged.rows[0].purged), ...(more ? { next: Number(result.last_seq) } : {}) };
  }

  async isPending(eventId: string): Promise<boolean> {
    const { rows } = await prepared(
      this.trx,
      'outbox_events.is_pending',
      'SELECT 1 FROM outbox_events e JOIN outbox_pending p ON p.seq = e.seq WHERE e.id = ?',
      [eventId],
    );
    return rows.length > 0;
  }

  async hold(eventId: string): Promise<boolean> {
    const { rows } = await prepared(this.trx, 'outbox_events.hold', 'SELECT 1 FROM outbox_events WHERE id = ? FOR KEY SHARE', [eventId]);
    return rows.length > 0;
  }
}

/** By customer, with or without type (migration 018), in a window of occurrence or not (042). */
const COUNTED: CountedList<EventListFilter> = {
  list: 'outbox_events',
  scopes: {},
  status: 'type',
  windows: [{ from: 'fromDate', to: 'toDate', column: 'occurred_at', scope: 'hour', unit: 'hour' }],
};

/** The events API's reads: one customer's events, by the indexes of migration 012. */
export class KnexEventQueries implements EventQueries {
  constructor(private readonly db: () => Knex) {}

  async get(id: string): Promise<StoredEvent | undefined> {
    const row = await this.db()('outbox_events').where({ id }).first<EventRow | undefined>();
    return row && toEvent(row);
  }

  list(filter: EventListFilter, page: PageRequest): Promise<Page<StoredEvent>> {
    const query = this.db()('outbox_events').where('customer_id', filter.customerId);
    if (filter.type !== undefined) whereOneValue(query, 'type', filter.type);
    if (filter.fromDate !== undefined) query.where('occurred_at', '>=', filter.fromDate);
    if (filter.toDate !== undefined) query.where('occurred_at', '<=', filter.toDate);
    return fetchPage(query, 'outbox_events', page, toEvent, {
      orderBy: { column: 'occurred_at', order: 'desc' },
      tieBreaker: 'seq',
      ...(filter.type === undefined ? {} : { oneValueOf: { column: 'type', indexOrder: 'asc' } }),
      total: maintainedTotal(this.db(), COUNTED, filter, rowCount(query, 'outbox_events')),
    });
  }

  /**
   * Migration 048 says why this order and horizon. Without `after`, the feed starts just before the first event from
   * fromDate on by time (after the customer's last event when none is, which new ones follow), or at the horizon when
   * that is earlier: an event a transaction still running records comes after it, so none is left out (a few from
   * before fromDate may come); or at the oldest held. fromDate filters nothing after: an event of a longer
   * transaction placed after the start is given whatever its time.
   */
  async feed(filter: EventFeedFilter, after: FeedPosition | undefined, count: number): Promise<EventFeedPage> {
    const db = this.db();
    const { customerId, fromDate } = filter;
    const total = maintainedTotal(db, COUNTED, { customerId })!;
    const place = after === undefined ? undefined : feedPositionParts(after);
    const start =
      place === undefined && fromDate !== undefined
        ? db.raw(
            `SELECT CASE WHEN c.txid < h.xmin THEN c.txid ELSE h.xmin END AS txid, CASE WHEN c.txid < h.xmin THEN c.seq ELSE 0 END AS seq
             FROM horizon h CROSS JOIN LATERAL (
               SELECT COALESCE(f.txid, l.txid, '0') AS txid, COALESCE(f.seq - 1, l.seq, 0) AS seq
               FROM (SELECT 1) one
               LEFT JOIN LATERAL (
                 SELECT txid, seq FROM outbox_events WHERE customer_id = ? AND occurred_at >= ? ORDER BY occurred_at, seq LIMIT 1
               ) f ON true
               LEFT JOIN LATERAL (SELECT txid, seq FROM outbox_events WHERE customer_id = ? ORDER BY txid DESC, seq DESC LIMIT 1) l ON true
             ) c`,
            [customerId, fromDate, customerId],
          )
        : db.raw('SELECT ?::xid8 AS txid, ?::bigint AS seq', [place?.transaction ?? '0', place?.seq ?? '0']);
    const { rows } = await db.raw<{ rows: Array<EventRow & { position: string | null; start: string; total: string; servers: string[]; ahead: boolean }> }>(
      `WITH horizon AS MATERIALIZED (SELECT pg_snapshot_xmin(s) AS xmin, pg_snapshot_xmax(s) AS xmax FROM pg_current_snapshot() s),
       start AS MATERIALIZED (?), servers AS MATERIALIZED (${FEED_SERVERS_SQL})
       SELECT s.txid::text || '.' || s.seq AS start, (SELECT servers FROM servers) AS servers, s.txid > (SELECT xmax FROM horizon) AS ahead, (?) AS total,
              e.id, e.customer_id, e.type, e.data, e.occurred_at, e.txid::text || '.' || e.seq AS position
       FROM start s LEFT JOIN LATERAL (
         SELECT * FROM outbox_events e
         WHERE e.customer_id = ? AND (e.txid, e.seq) > (s.txid, s.seq) AND e.txid < (SELECT xmin FROM horizon)
         ORDER BY e.txid, e.seq LIMIT ?
       ) e ON true`,
      [start, total, customerId, count],
    );
    const [{ servers, ahead }] = rows;
    const [server] = servers;
    // Given by a server whose transaction ids order nothing here (the database was restored or moved since), or past
    // this server's count (restored from a backup older than the cursor): followed, it would pass over new events.
    if (place !== undefined && (!servers.includes(place.server) || ahead)) {
      throw ValidationError.of(
        'cursor',
        'was given by another database server (the database was restored or moved since): follow the feed again from fromDate',
      );
    }
    const items = rows.filter((row) => row.position !== null);
    return { items: items.map(toEvent), total: Number(rows[0].total), next: `${server}:${items.at(-1)?.position ?? rows[0].start}` };
  }
}
