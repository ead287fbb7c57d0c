import type { DomainEvent, EventType } from '../shared/events';
import type { Page, PageRequest } from '../shared/page';

/** An event as the outbox keeps it: the fact and the evt_ id it was given (the webhook-id of its deliveries). */
export interface StoredEvent extends DomainEvent {
  readonly id: string;
}

/** Where a purge pass stopped: the outbox position after which the next pass goes on. Opaque to callers. */
export type PurgePosition = number;

export interface PurgeBatch {
  /** Events deleted by this pass. */
  readonly purged: number;
  /** Where the next pass goes on; undefined once the passes reached events too recent to purge, or the end. */
  readonly next?: PurgePosition;
}

/**
 * The outbox as the dispatcher and the purge see it, in the caller's transaction.
 *
 * Gap-free: an event is pending from the transaction that recorded it until one `claimPending` takes it, so an
 * event whose transaction commits after a later-numbered one is claimed by the next call after its commit, never
 * skipped; nothing follows a high-water mark.
 */
export interface EventFeed {
  /**
   * Takes up to `limit` committed events no dispatch has taken, oldest first, skipping those another open
   * transaction holds. They stop being pending when this transaction commits; if it rolls back (the process dies,
   * the handler throws) they are pending again for the next call.
   */
  claimPending(limit: number): Promise<readonly StoredEvent[]>;
  /**
   * Deletes up to `limit` events that occurred before `before` and were dispatched, looking at events from
   * `after` on (in the order they were recorded), and says where the next pass goes on.
   */
  purgeDispatched(before: Date, after: PurgePosition | undefined, limit: number): Promise<PurgeBatch>;
  /**
   * Keeps the event from the purge until this transaction ends, so an attempt of it stored meanwhile goes with it
   * when it is purged; false once it is purged (or purging).
   */
  hold(eventId: string): Promise<boolean>;
  /** Whether the event waits for the dispatcher, which will schedule its first attempt at each subscribed webhook. */
  isPending(eventId: string): Promise<boolean>;
}

export interface EventListFilter {
  readonly customerId: number;
  readonly type?: EventType;
  /** On occurredAt (the envelope's createdAt), inclusive. */
  readonly fromDate?: Date;
  readonly toDate?: Date;
}

/**
 * A place in a customer's feed of events: decimal text, `<server>:<transaction>.<position>`, as the storage gives it
 * (the server whose transaction ids order the feed, a transaction id, a position). Opaque to callers, who only hand
 * back one a feed page gave.
 */
export type FeedPosition = string;

const MAX_INT8 = 2n ** 63n - 1n;
const MAX_TRANSACTION = 2n ** 64n - 1n;

/** Whether `text` is a place a feed could give, each of its numbers within what the storage holds. */
export function isFeedPosition(text: string): boolean {
  const parts = /^(-?\d{1,19}):(\d{1,20})\.(\d{1,19})$/.exec(text);
  if (parts === null) return false;
  const [server, transaction, seq] = parts.slice(1).map(BigInt);
  return server >= -MAX_INT8 - 1n && server <= MAX_INT8 && transaction <= MAX_TRANSACTION && seq <= MAX_INT8;
}

/** The parts of a position isFeedPosition accepted. */
export function feedPositionParts(position: FeedPosition): { server: string; transaction: string; seq: string } {
  const [server, rest] = position.split(':');
  const [transaction, seq] = rest.split('.');
  return { server, transaction, seq };
}

export interface EventFeedFilter {
  readonly customerId: number;
  /**
   * Where the feed starts without `after`: at the first event that occurred at or after it. It filters nothing
   * after that: an event of a longer transaction placed after the start is given whatever its time.
   */
  readonly fromDate?: Date;
}

export interface EventFeedPage {
  readonly items: readonly StoredEvent[];
  /** Every event of the customer held, readable or about to be (X-Total-Count). */
  readonly total: number;
  /** Where the next page starts: after the last item, or where this page started when it had none. */
  readonly next: FeedPosition;
}

/** Reads for the events API: a customer's events, newest first, or as a feed. */
export interface EventQueries {
  get(id: string): Promise<StoredEvent | undefined>;
  list(filter: EventListFilter, page: PageRequest): Promise<Page<StoredEvent>>;
  /**
   * Up to `count` events after `after`, in an order in which an event never comes before one a page already gave:
   * an event of a transaction still open when a page is read comes after it, once that transaction commits, so a
   * reader following `next` sees every event once, however their transactions overlap.
   */
  feed(filter: EventFeedFilter, after: FeedPosition | undefined, count: number): Promise<EventFeedPage>;
}
