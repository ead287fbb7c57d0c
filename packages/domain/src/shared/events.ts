/**
 * Event types of CONTRACT "Events and webhooks", the names the webhook event types, and one it lacks:
 * receivable.reopened, a PAID receivable moved back to PENDING (the undo), without which an integrator following
 * events would hold it PAID.
 */
export const EVENT_TYPES = [
  'receivable-account.activated',
  'receivable-account.disabled',
  'receivable.created',
  'receivable.paid',
  'receivable.reopened',
  'receivable.expired',
  'receivable.disabled',
  'receivable.settled',
  'movement.created',
  'settlement.completed',
  'transfer.completed',
  'transfer.failed',
  'webhook.test',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** A fact to publish. The outbox gives it its evt_ id; `data` is the envelope's data member. */
export interface DomainEvent {
  readonly customerId: number;
  readonly type: EventType;
  readonly occurredAt: Date;
  readonly data: Readonly<Record<string, unknown>>;
}

/** Stored events commit or roll back with the change that caused them (transactional outbox). */
export interface Outbox {
  record(events: readonly DomainEvent[]): Promise<void>;
}
