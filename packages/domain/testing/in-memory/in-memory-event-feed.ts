import {
  feedPositionParts,
  type EventFeed,
  type EventFeedFilter,
  type EventFeedPage,
  type EventListFilter,
  type EventQueries,
  type FeedPosition,
  type Page,
  type PageRequest,
  type PurgeBatch,
  type PurgePosition,
  type StoredEvent,
} from '../../src';
import type { OutboxRow, TablesRef, TablesSource } from './in-memory-tables';

const stored = ({ seq: _position, ...event }: OutboxRow): StoredEvent => event;

/** The feed's position after the event recorded `seq`th: one server, and no transaction ids to order by. */
const positionAfter = (seq: number): FeedPosition => `0:0.${seq}`;

/** The outbox feed as the SQL does it; transactions here run one at a time, so a claim never meets another. */
export class InMemoryEventFeed implements EventFeed {
  constructor(private readonly ref: TablesRef) {}

  async claimPending(limit: number): Promise<readonly StoredEvent[]> {
    const { tables } = this.ref;
    const claimed = tables.outbox.filter((row) => tables.pendingEvents.has(row.seq)).slice(0, limit);
    for (const row of claimed) tables.pendingEvents.delete(row.seq);
    return claimed.map(stored);
  }

  async purgeDispatched(before: Date, after: PurgePosition | undefined, limit: number): Promise<PurgeBatch> {
    const { tables } = this.ref;
    const examined = tables.outbox.filter((row) => after === undefined || row.seq > after).slice(0, limit);
    const attempts = [...tables.webhookDeliveries.values()];
    const unfinished = new Set(attempts.filter((d) => d.status === 'PENDING').map((d) => d.eventId));
    const doomed = examined.filter((row) => row.occurredAt < before && !tables.pendingEvents.has(row.seq) && !unfinished.has(row.id));
    const seqs = new Set(doomed.map((row) => row.seq));
    const ids = new Set(doomed.map((row) => row.id));
    tables.outbox = tables.outbox.filter((row) => !seqs.has(row.seq));
    for (const d of attempts) if (ids.has(d.eventId)) tables.webhookDeliveries.delete(d.id);
    const reachedRecent = examined.some((row) => row.occurredAt >= before);
    const next = examined.length === limit && !reachedRecent ? examined[examined.length - 1].seq : undefined;
    return { purged: doomed.length, ...(next === undefined ? {} : { next }) };
  }

  async hold(eventId: string): Promise<boolean> {
    return this.ref.tables.outbox.some((row) => row.id === eventId);
  }

  async isPending(eventId: string): Promise<boolean> {
    const { tables } = this.ref;
    return tables.outbox.some((row) => row.id === eventId && tables.pendingEvents.has(row.seq));
  }
}

export class InMemoryEventQueries implements EventQueries {
  constructor(private readonly source: TablesSource) {}

  async get(id: string): Promise<StoredEvent | undefined> {
    const row = this.source.visibleTables().outbox.find((e) => e.id === id);
    return row && stored(row);
  }

  async list(filter: EventListFilter, page: PageRequest): Promise<Page<StoredEvent>> {
    const rows = this.source
      .visibleTables()
      .outbox.filter(
        (e) =>
          e.customerId === filter.customerId &&
          (filter.type === undefined || e.type === filter.type) &&
          (filter.fromDate === undefined || e.occurredAt >= filter.fromDate) &&
          (filter.toDate === undefined || e.occurredAt <= filter.toDate),
      )
      .sort((a, b) => b.occurredAt.getTime() - a.occurredAt.getTime() || b.seq - a.seq);
    const start = (page.page - 1) * page.count;
    return { items: rows.slice(start, start + page.count).map(stored), total: rows.length };
  }

  /** Transactions here commit one at a time, whole: the order events were recorded in is already a feed's. */
  async feed(filter: EventFeedFilter, after: FeedPosition | undefined, count: number): Promise<EventFeedPage> {
    const rows = this.source.visibleTables().outbox.filter((e) => e.customerId === filter.customerId);
    const { fromDate } = filter;
    const first = fromDate && [...rows].sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime() || a.seq - b.seq).find((e) => e.occurredAt >= fromDate);
    const start = after ?? positionAfter(fromDate === undefined ? 0 : first ? first.seq - 1 : Math.max(0, ...rows.map((e) => e.seq)));
    const afterSeq = Number(feedPositionParts(start).seq);
    const items = rows.filter((e) => e.seq > afterSeq).slice(0, count);
    return { items: items.map(stored), total: rows.length, next: items.length === 0 ? start : positionAfter(items[items.length - 1].seq) };
  }
}
