import type { CommonListFilter, Page, PageRequest } from '../shared/page';
import type { DeliveryOutcome, NewWebhook, Webhook } from './webhook';
import type { DeliveryResult, DeliveryStatus, NewWebhookDelivery, WebhookDelivery } from './webhook-delivery';

export interface WebhookRepository {
  /** Reads and locks the row until the transaction ends. */
  getForUpdate(id: number): Promise<Webhook | undefined>;
  insert(webhook: NewWebhook): Promise<Webhook>;
  /** Version-checked save; concurrent-modification when someone saved in between. */
  update(webhook: Webhook): Promise<void>;
  /** Deletes the webhook and its delivery history. */
  delete(id: number): Promise<void>;
  /**
   * Records the outcome of the latest attempt (lastDeliveryAt, lastDeliveryStatus) without a version check: a
   * delivery finishing must neither fail on nor undo a change the integrator made meanwhile.
   */
  recordDelivery(id: number, at: Date, outcome: DeliveryOutcome): Promise<void>;
}

export interface WebhookDeliveryRepository {
  insert(delivery: NewWebhookDelivery): Promise<WebhookDelivery>;
  /** Ends a PENDING attempt with what the endpoint did; its lease goes with it. */
  /** Undefined when the attempt is gone (its webhook was deleted). */
  complete(id: number, result: DeliveryResult): Promise<WebhookDelivery | undefined>;
}

export interface WebhookListFilter extends CommonListFilter {
  readonly customerId: number;
}

export interface WebhookDeliveryListFilter {
  readonly webhookId: number;
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
  readonly url: string;
  /** The event id: webhook-id, for the integrator to deduplicate by. */
  readonly eventId: string;
  readonly body: string;
  /** Every secret (plain) to sign with: the current one, and the previous one in its grace window. */
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
}
