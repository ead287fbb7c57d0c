import type { EventType } from '../shared/events';

export type DeliveryStatus =
  /** Due at nextAttemptAt, or being sent by whoever holds its lease (claimedUntil). */
  | 'PENDING'
  /** The endpoint answered 2xx in time. */
  | 'SUCCESS'
  /** Anything else: another status, a redirect, a timeout, a refused connection or address. */
  | 'FAILED';

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['PENDING', 'SUCCESS', 'FAILED'];

/** One attempt to deliver one event to one webhook: the delivery history lists these. */
export interface WebhookDelivery {
  readonly id: number;
  readonly webhookId: number;
  readonly customerId: number;
  readonly eventId: string;
  readonly eventType: EventType;
  /** 1 for the first attempt of an event at this webhook, then one more per retry or redelivery. */
  readonly attempt: number;
  readonly status: DeliveryStatus;
  /** The endpoint's HTTP status; null when none came (timeout, refused connection). */
  readonly responseCode: number | null;
  readonly durationMs: number | null;
  /** Why a FAILED attempt failed, in words ("timed out after 15000 ms", "redirect (302) not followed"). */
  readonly failureReason: string | null;
  /**
   * When it entered the history: queued, or for a retry the time it was due when scheduled (the holding of an attempt
   * while its webhook is paused counts from it). Never changes, so the history's order (newest first by it) holds
   * while attempts are made.
   */
  readonly createdAt: Date;
  /**
   * When a PENDING attempt is due (a retry's time on the schedule, made earlier by an activation); null once made,
   * and once held: due while its webhook is PAUSED or FAILED, it waits for an activation.
   */
  readonly nextAttemptAt: Date | null;
  /**
   * When its send began; null while PENDING, for one that expired unsent or whose sender stopped mid-call, and for one
   * made before it was kept (migration 047 of the PostgreSQL adapter), whose createdAt says when it was sent.
   */
  readonly attemptedAt: Date | null;
}

/** An attempt about to be sent: recorded PENDING under a lease before the call, so a crash leaves it to be retried. */
export interface NewWebhookDelivery {
  readonly webhookId: number;
  readonly customerId: number;
  readonly eventId: string;
  readonly eventType: EventType;
  readonly attempt: number;
  /**
   * Its place in the CONTRACT schedule (1 to 8), which says when the attempt after it is due and that none follows
   * the last; null for a test delivery or a manual redelivery, which no retry follows. Apart from `attempt`: a
   * redelivery takes the next attempt number, and the automatic retries keep every step of their schedule.
   */
  readonly scheduleStep: number | null;
  /** The exact body sent, so a retry sends the same bytes. */
  readonly payload: string;
  readonly createdAt: Date;
  readonly claimedUntil: Date;
}

/**
 * An attempt the dispatcher or a retry schedules: due at nextAttemptAt, or held (null) while its webhook is PAUSED or
 * FAILED, until an activation releases it or WEBHOOK_RETENTION_HOURS expire it.
 */
export interface ScheduledDelivery extends Omit<NewWebhookDelivery, 'claimedUntil'> {
  readonly nextAttemptAt: Date | null;
}

/** A due attempt a worker claimed: its lease keeps other workers off it for a fixed time (longer than a send). */
export interface ClaimedDelivery extends Omit<NewWebhookDelivery, 'claimedUntil'> {
  readonly id: number;
  /** Claimed once its lease lapsed: a worker took it, may have sent it, and never recorded an answer. */
  readonly lapsed: boolean;
}

/** An attempt's end as the history records it: an answer, or none (its sender died: durationMs null). */
export interface AttemptEnd {
  readonly status: Exclude<DeliveryStatus, 'PENDING'>;
  readonly responseCode: number | null;
  readonly durationMs: number | null;
  readonly failureReason: string | null;
}

/** What the endpoint did with an attempt. */
export interface DeliveryResult extends AttemptEnd {
  readonly durationMs: number;
}
