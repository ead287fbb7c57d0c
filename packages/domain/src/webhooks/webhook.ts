import { DomainError, ValidationError } from '../shared/domain-error';
import { EVENT_TYPES, type EventType } from '../shared/events';

export type WebhookStatus =
  /** Deliveries go out as events happen. */
  | 'ACTIVE'
  /** Deliveries are held (CONTRACT: kept 72 h) until the integrator activates it again. */
  | 'PAUSED'
  /** Too many consecutive failed attempts: deliveries stop until the integrator activates it again. */
  | 'FAILED';

export type WebhookOperation = 'update' | 'pause' | 'activate' | 'fail' | 'rotate-secret';

/** Each refusable move in the API's words. */
const REFUSED: Readonly<Record<WebhookOperation, string>> = {
  update: 'changed',
  pause: 'paused',
  activate: 'activated',
  fail: 'marked FAILED',
  'rotate-secret': 'given a new secret',
};

/** The one table of legal moves: which operation each status allows, and where it leads. */
const TRANSITIONS: Readonly<Record<WebhookStatus, Partial<Record<WebhookOperation, WebhookStatus>>>> = {
  ACTIVE: { update: 'ACTIVE', pause: 'PAUSED', fail: 'FAILED', 'rotate-secret': 'ACTIVE' },
  PAUSED: { update: 'PAUSED', activate: 'ACTIVE', 'rotate-secret': 'PAUSED' },
  FAILED: { update: 'FAILED', activate: 'ACTIVE', 'rotate-secret': 'FAILED' },
};

export const WEBHOOK_STATUSES = Object.keys(TRANSITIONS) as readonly WebhookStatus[];

/** How long signatures made with the previous secret keep coming after a rotation (CONTRACT: 24 h). */
export const SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * The most signatures one delivery carries: the current secret and up to 4 replaced ones still in their grace
 * window. A fifth rotation within 24 h ends the grace of the oldest then, so a header never grows past 5.
 */
export const MAX_SIGNING_SECRETS = 5;

export type DeliveryOutcome = 'SUCCESS' | 'FAILED';

/** A signing secret as stored: sealed (encrypted at rest) and the tail shown as secretMaskedTail. */
export interface SealedSecret {
  readonly sealed: string;
  readonly tail: string;
}

export interface WebhookSecrets {
  readonly current: SealedSecret;
  /** Secrets replaced by rotations, newest first, each signing too until its `expiresAt` (at most MAX_SIGNING_SECRETS - 1). */
  readonly previous: ReadonlyArray<{ readonly sealed: string; readonly expiresAt: Date }>;
}

export interface WebhookSubscription {
  readonly url: string;
  readonly events: readonly EventType[];
}

export interface WebhookSnapshot extends WebhookSubscription {
  readonly id: number;
  readonly customerId: number;
  readonly status: WebhookStatus;
  readonly secrets: WebhookSecrets;
  readonly lastDeliveryAt: Date | null;
  readonly lastDeliveryStatus: DeliveryOutcome | null;
  readonly creationDate: Date;
  readonly modificationDate: Date;
  readonly version: number;
}

export type NewWebhook = Omit<WebhookSnapshot, 'id'>;

/** "...abcd": the last 4 characters of a secret (SPEC secretMaskedTail). */
export const tailOf = (secret: string): string => secret.slice(-4);

const MAX_URL_LENGTH = 2048;

/** SPEC: HTTPS only. A URL the service could not call (no host, credentials in it) is refused here too. */
export function parseWebhookUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw ValidationError.of('url', 'must be an absolute URL');
  }
  if (url.protocol !== 'https:') throw ValidationError.of('url', 'must be an https:// URL');
  // The parser makes a host of what follows a missing one ('https:///hooks' is https://hooks/): not what was sent.
  if (!/^\s*https:\/\/[^/\\]/i.test(raw)) throw ValidationError.of('url', 'must name its host right after https://');
  if (url.username || url.password) throw ValidationError.of('url', 'must not carry credentials');
  if (url.hash) throw ValidationError.of('url', 'must not carry a #fragment');
  // Nothing listens on port 0: every attempt would fail.
  if (url.port === '0') throw ValidationError.of('url', 'must name a port from 1 to 65535');
  // The URL as stored and answered, which percent-encoding and punycode make longer than the one sent.
  if (url.href.length > MAX_URL_LENGTH) throw ValidationError.of('url', `must be at most ${MAX_URL_LENGTH} characters, percent-encoded`);
  return url.href;
}

/** Known event types only (SPEC: 400 invalid-event-type), each once, in the order given. */
export function parseEventTypes(events: readonly string[], member = 'events'): EventType[] {
  if (events.length === 0) throw ValidationError.of(member, 'must name at least one event type');
  const unknown = events.filter((type) => !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length) {
    throw new DomainError('invalid-event-type', `${member} names no event type ${unknown.join(', ')} (event types: ${EVENT_TYPES.join(', ')})`);
  }
  return [...new Set(events as EventType[])];
}

export function parseSubscription(subscription: { url: string; events: readonly string[] }): WebhookSubscription {
  return { url: parseWebhookUrl(subscription.url), events: parseEventTypes(subscription.events) };
}

/** An integrator endpoint that receives the customer's events, signed with its secret. */
export class Webhook {
  private constructor(private readonly state: WebhookSnapshot) {}

  static register(customerId: number, subscription: WebhookSubscription, secret: SealedSecret, now: Date): NewWebhook {
    return {
      ...subscription,
      customerId,
      status: 'ACTIVE',
      secrets: { current: secret, previous: [] },
      lastDeliveryAt: null,
      lastDeliveryStatus: null,
      creationDate: now,
      modificationDate: now,
      version: 1,
    };
  }

  static rehydrate(snapshot: WebhookSnapshot): Webhook {
    return new Webhook(snapshot);
  }

  /** The status an operation leads to from `from`, or undefined when the table forbids it. */
  static nextStatus(from: WebhookStatus, operation: WebhookOperation): WebhookStatus | undefined {
    return TRANSITIONS[from][operation];
  }

  get id(): number {
    return this.state.id;
  }

  get customerId(): number {
    return this.state.customerId;
  }

  get status(): WebhookStatus {
    return this.state.status;
  }

  /** The sealed secrets that sign a delivery made at `now`: the current one, and each replaced one in its grace window. */
  signingSecrets(now: Date): string[] {
    return [this.state.secrets.current.sealed, ...this.stillValid(now).map((secret) => secret.sealed)];
  }

  replaceSubscription(subscription: WebhookSubscription, now: Date): Webhook {
    return this.move('update', subscription, now);
  }

  pause(now: Date): Webhook {
    return this.move('pause', {}, now);
  }

  activate(now: Date): Webhook {
    return this.move('activate', {}, now);
  }

  fail(now: Date): Webhook {
    return this.move('fail', {}, now);
  }

  /**
   * The new secret signs from now on; the one it replaces keeps signing too for SECRET_GRACE_MS, as do those
   * replaced before it still in their grace window, up to MAX_SIGNING_SECRETS in all (the oldest go first).
   */
  rotateSecret(secret: SealedSecret, now: Date): Webhook {
    const replaced = { sealed: this.state.secrets.current.sealed, expiresAt: new Date(now.getTime() + SECRET_GRACE_MS) };
    const previous = [replaced, ...this.stillValid(now)].slice(0, MAX_SIGNING_SECRETS - 1);
    return this.move('rotate-secret', { secrets: { current: secret, previous } }, now);
  }

  toSnapshot(): WebhookSnapshot {
    return this.state;
  }

  private stillValid(now: Date) {
    return this.state.secrets.previous.filter((secret) => secret.expiresAt > now);
  }

  private move(operation: WebhookOperation, changes: Partial<WebhookSnapshot>, now: Date): Webhook {
    const status = Webhook.nextStatus(this.state.status, operation);
    if (!status) throw new DomainError('webhook-status-conflict', `webhook ${this.state.id} is ${this.state.status} and cannot be ${REFUSED[operation]}`);
    return new Webhook({ ...this.state, ...changes, status, modificationDate: now, version: this.state.version + 1 });
  }
}
