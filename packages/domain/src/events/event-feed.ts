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

/** Reads for the events API: a customer's events, newest first. */
export interface EventQueries {
  get(id: string): Promise<StoredEvent | undefined>;
  list(filter: EventListFilter, page: PageRequest): Promise<Page<StoredEvent>>;
}
