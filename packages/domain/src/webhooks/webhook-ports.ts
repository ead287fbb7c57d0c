import type { CommonListFilter, Page, PageRequest } from '../shared/page';
import type { DeliveryOutcome, NewWebhook, Webhook, WebhookStatus } from './webhook';
import type { AttemptEnd, ClaimedDelivery, DeliveryResult, DeliveryStatus, NewWebhookDelivery, ScheduledDelivery, WebhookDelivery } from './webhook-delivery';

export interface WebhookRepository {
  /** Reads and locks the row until the transaction ends. */
  getForUpdate(id: number): Promise<Webhook | undefined>;
  insert(webhook: NewWebhook): Promise<Webhook>;
  /** Version-checked save; concurrent-modification when someone saved in between. */
  update(webhook: Webhook): Promise<void>;
  /**
   * Deletes the webhook: gone from every read at once, its attempts never claimed again. Its delivery history, which
   * the events' retention bounds but may hold millions, is left for WebhookDeliveryRepository.purgeOfDeletedWebhooks,
   * so a deletion costs the same whatever the webhook sent.
   */
  delete(id: number): Promise<void>;
  /**
   * Records the outcomes of attempts (one or more), in the order their endpoint answered them, without a version
   * check: a delivery finishing must neither fail on nor undo a change the integrator made meanwhile. The last is the
   * latest delivery (lastDeliveryAt `at`, lastDeliveryStatus); each counts in the webhook's run of consecutive failed
   * attempts (runOfFailures). Answers the run's longest length while they were counted, what the failure threshold
   * is checked against; undefined when the webhook is gone. One statement for the lot, however many.
   */
  recordDelivery(id: number, at: Date, outcomes: readonly DeliveryOutcome[]): Promise<number | undefined>;
  /**
   * Locks these webhooks' rows until the transaction ends, in id order, so transactions that record deliveries to
   * several webhooks take shared rows in one order and never deadlock. Answers the ids of those that exist: a
   * deleted webhook's attempts are left to the purge, neither ended nor retried.
   */
  lockForRecording(ids: readonly number[]): Promise<ReadonlySet<number>>;
  /**
   * These webhooks' statuses, their rows locked (shared, in id order) until the transaction ends; the ones gone are
   * left out, and so, with `wait` false, are those another transaction is changing, not waited for. Asked before
   * holding attempts for webhooks read without a lock as PAUSED or FAILED: an activation releases the held attempts
   * it sees, so one committing between that read and this transaction's end would leave them held on an ACTIVE
   * webhook, never sent. Locked, an activation either committed first and is read ACTIVE here, or waits for this
   * transaction and then sees what it held.
   */
  lockedStatuses(ids: readonly number[], wait: boolean): Promise<Map<number, WebhookStatus>>;
  /** Ends the run of consecutive failures (an activation starts afresh). */
  resetFailures(id: number): Promise<void>;
  /** The webhooks of these customers, whatever their status: the dispatcher matches events against them. */
  ofCustomers(customerIds: readonly number[]): Promise<Webhook[]>;
  /** These webhooks, read without a lock; the ones gone are left out. */
  findMany(ids: readonly number[]): Promise<Webhook[]>;
}

/**
 * Webhooks, and attempts, a claim reads per attempt it may take: claims made at the same time pick the same oldest
 * ones, and those that lose them to another's lock take the next instead.
 */
export const CLAIM_SCAN_FACTOR = 4;

export interface DeliveryClaim {
  readonly now: Date;
  readonly claimedUntil: Date;
  readonly limit: number;
  /** At most this many attempts of one webhook in one claim. */
  readonly perWebhook: number;
  /** Webhooks whose attempts are left alone (this worker already sends as many to them as it may). */
  readonly skipWebhooks: readonly number[];
  /**
   * Webhooks that take fewer than perWebhook in this claim, each at most its own share (a slow endpoint's); a share
   * of 0 or less takes none.
   */
  readonly shares?: readonly WebhookShare[];
}

/** A webhook's own cap in one claim. */
export interface WebhookShare {
  readonly webhookId: number;
  readonly perWebhook: number;
}

/** An attempt as one claim leased it. */
export interface DeliveryLease {
  readonly id: number;
  readonly claimedUntil: Date;
}

/** An attempt's result, to be recorded. */
export interface Completion {
  readonly id: number;
  readonly result: AttemptEnd;
  /**
   * When its send began: the attempt's time in the history from then on (one queued earlier, held while its webhook
   * was paused or waiting for a worker, was made then). Absent: the time it was stored stands (it was sent as soon as
   * stored, or lost with no send of its own recorded).
   */
  readonly sentAt?: Date;
}

export interface WebhookDeliveryRepository {
  insert(delivery: NewWebhookDelivery): Promise<WebhookDelivery>;
  /**
   * Ends PENDING attempts with what their endpoint did; their leases go with them. Answers the attempts it ended, in
   * no particular order: one gone (purged after its webhook's deletion) or already ended (a second sender, after a lapsed lease,
   * recorded it first) is left out. One statement for the lot; each attempt at most once in `completions`.
   */
  complete(completions: readonly Completion[]): Promise<WebhookDelivery[]>;
  /** The highest attempt number of the event at the webhook; 0 when none. */
  lastAttempt(webhookId: number, eventId: string): Promise<number>;
  /**
   * Stores attempts to be sent; one already stored (same webhook, event and attempt) is left as it is, and those of a
   * webhook that is gone are not stored (a dispatch that read it before its deletion committed).
   */
  schedule(deliveries: readonly ScheduledDelivery[]): Promise<void>;
  /**
   * Leases due PENDING attempts (nextAttemptAt passed, or a lease that lapsed: its sender died), skipping those
   * another transaction holds: of the webhooks with due attempts (not skipped, a share above 0), the
   * CLAIM_SCAN_FACTOR x `limit` whose oldest due attempt is oldest (due time, then id) read an equal part of
   * CLAIM_SCAN_FACTOR x `limit` of their oldest due attempts (one at least, perWebhook or their share at most), and
   * the oldest `limit` of those read are leased. What a claim reads does not grow with a webhook's backlog, nor
   * with webhooks whose attempts are due later. Storage may order webhooks by a lower bound of their next due time
   * that it keeps: a webhook whose bound passed but whose attempts were sent, held or leased since is read once
   * for nothing (that claim raises its bound), which may leave the claim short of `limit` while others are due.
   * Each says whether it was leased when claimed (`lapsed`).
   */
  claimDue(claim: DeliveryClaim): Promise<ClaimedDelivery[]>;
  /** Holds claimed attempts (their webhook is PAUSED or FAILED): not due until `release`. */
  hold(ids: readonly number[]): Promise<void>;
  /**
   * Gives back leased attempts their sender will not make: those still PENDING under the lease they were given are
   * due again at `now` at the latest, for a claim that reads their webhook afresh. Ended or held attempts, and those
   * another worker leased since (the lease lapsed), stay as they are.
   */
  unclaim(leases: readonly DeliveryLease[], now: Date): Promise<void>;
  /**
   * Makes a webhook's held attempts due at `now`, those held since `heldSince` or later; older ones end FAILED as
   * expired. Its retries scheduled later than `now` (not leased) are due at `now` too, with the released: the
   * endpoint is back, as its activation says. How many of each.
   */
  release(webhookId: number, now: Date, heldSince: Date): Promise<{ released: number; expired: number }>;
  /** Ends up to `limit` attempts held since before `heldBefore` as FAILED (expired); how many. */
  expireHeld(heldBefore: Date, limit: number): Promise<number>;
  /**
   * Deletes up to `limit` finished attempts of test events (webhook.test) made before `before`, oldest first: no
   * outbox event takes them with it when it is purged. How many.
   */
  purgeTestAttempts(before: Date, limit: number): Promise<number>;
  /**
   * Deletes up to `limit` attempts of deleted webhooks; how many. When fewer are left, it forgets the deletions
   * whose attempts are all gone (none is written after a deletion: `schedule` passes over webhooks that are gone).
   */
  purgeOfDeletedWebhooks(limit: number): Promise<number>;
}

/** An attempt whose lease lapsed in another worker's hands with no answer recorded, as the history ends it. */
export const LOST_ATTEMPT: AttemptEnd = {
  status: 'FAILED',
  responseCode: null,
  durationMs: null,
  failureReason: 'no answer recorded: the worker sending it stopped or overran its lease; sent again as the next attempt while the retry schedule lasts',
};

/** Why an attempt held past the retention window ended FAILED: its history shows this. */
export const EXPIRED_REASON = 'expired: held while the webhook was not ACTIVE for longer than the retention window';

export interface WebhookListFilter extends CommonListFilter {
  readonly customerId: number;
}

export interface WebhookDeliveryListFilter {
  readonly webhookId: number;
  /** The webhook's customer, whose counts of its attempts storage may keep. */
  readonly customerId: number;
  /** On the attempt's creation time; toDate inclusive. */
  readonly fromDate?: Date;
  readonly toDate?: Date;
  readonly status?: DeliveryStatus;
  /** Any text: a type no attempt has matches nothing. */
  readonly eventType?: string;
  readonly eventId?: string;
}

export interface WebhookQueries {
  get(id: number): Promise<Webhook | undefined>;
  list(filter: WebhookListFilter, page: PageRequest): Promise<Page<Webhook>>;
  /** Attempts newest first. */
  deliveries(filter: WebhookDeliveryListFilter, page: PageRequest): Promise<Page<WebhookDelivery>>;
}

/**
 * Signing secrets: generated (`whsec_` + base64 of random bytes), sealed for storage (encrypted at rest) and opened
 * again to sign.
 */
export interface WebhookSecretVault {
  generate(): string;
  seal(secret: string): string;
  open(sealed: string): string;
}

/** Refuses a URL the service must not call (in production: one resolving to a loopback, link-local or private address). */
export interface WebhookUrlPolicy {
  /** Throws ValidationError on `url` when refused. */
  check(url: string): Promise<void>;
}

/** One signed HTTP POST of an event to an endpoint. */
export interface WebhookRequest {
  /** Whose attempt it is: a sender keeps each webhook's connections apart, so one's hanging endpoint holds no other's. */
  readonly webhookId: number;
  readonly url: string;
  /** The event id: webhook-id, for the integrator to deduplicate by. */
  readonly eventId: string;
  readonly body: string;
  /** Every secret (plain) to sign with: the current one, and each replaced one in its grace window. */
  readonly secrets: readonly string[];
}

/** Sends a webhook request; never throws for what the endpoint does: that is a FAILED result. */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<DeliveryResult>;
}

/** Fresh evt_ ids for events that do not come from the outbox (test events). */
export interface EventIdGenerator {
  eventId(): string;
}

/** What sending deliveries needs besides storage. */
export interface WebhookDeliveryPorts {
  readonly vault: WebhookSecretVault;
  readonly sender: WebhookSender;
  readonly eventIds: EventIdGenerator;
  /** How long an attempt being sent is held from other senders: longer than the sender's timeout. */
  readonly leaseMs: number;
  /** Multiplies the retry schedule's delays (WEBHOOK_RETRY_SCALE; 1 in production, small in tests). */
  readonly retryScale: number;
  /** Consecutive failed attempts after which an ACTIVE webhook becomes FAILED (WEBHOOK_FAILURE_THRESHOLD). */
  readonly failureThreshold: number;
  /** How long a PAUSED or FAILED webhook keeps its attempts for an activation (WEBHOOK_RETENTION_HOURS). */
  readonly retentionMs: number;
}
