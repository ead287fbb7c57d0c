import type { Clock } from '../../shared/clock';
import { NotFoundError } from '../../shared/domain-error';
import { ownedBy } from '../../shared/owned';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import type { EventQueries } from '../../events/event-feed';
import { eventPayload } from '../../events/event-envelope';
import { failPastThreshold } from '../failure-threshold';
import { parseEventTypes, type Webhook } from '../webhook';
import type { NewWebhookDelivery, WebhookDelivery } from '../webhook-delivery';
import type { WebhookDeliveryPorts } from '../webhook-ports';
import type { WebhookTarget } from './change-webhook';
import { endAttempts } from './end-attempts';
import { openedSecrets, sendSigned } from '../signing-secrets';

type Scope = Pick<TransactionScope, 'webhooks' | 'webhookDeliveries' | 'eventFeed'>;
type Attempt = Pick<NewWebhookDelivery, 'eventId' | 'eventType' | 'attempt' | 'scheduleStep' | 'payload'>;
type AttemptOf = (webhook: Webhook, tx: Scope) => Promise<Attempt> | Attempt;

/**
 * Sends one attempt now, whatever the webhook's status and subscriptions, and answers how the endpoint took it.
 * The attempt is recorded PENDING under a lease before the call and completed after it, each in a transaction of
 * its own: none stays open across the call. No retry follows a failure: the caller sees it and decides. It counts
 * towards WEBHOOK_FAILURE_THRESHOLD as every attempt does.
 */
async function sendNow(
  uow: UnitOfWork<Scope>,
  clock: Clock,
  ports: WebhookDeliveryPorts,
  target: WebhookTarget,
  attemptOf: AttemptOf,
): Promise<WebhookDelivery> {
  const now = clock.now();
  const { delivery, request } = await uow.run(async (tx) => {
    // Locked: two attempts of one event made at once take different attempt numbers.
    const webhook = ownedBy(await tx.webhooks.getForUpdate(target.webhookId), target.customerId, 'webhook', target.webhookId);
    const attempt = await attemptOf(webhook, tx);
    return {
      delivery: await tx.webhookDeliveries.insert({
        ...attempt,
        webhookId: webhook.id,
        customerId: target.customerId,
        createdAt: now,
        claimedUntil: new Date(now.getTime() + ports.leaseMs),
      }),
      request: {
        webhookId: webhook.id,
        url: webhook.toSnapshot().url,
        eventId: attempt.eventId,
        body: attempt.payload,
        secrets: openedSecrets(webhook, now, ports.vault),
      },
    };
  });
  const sentAt = clock.now();
  const result = await sendSigned(ports.sender, request);
  return uow.run(async (tx) => {
    // Deleted meanwhile, the webhook leaves its attempt to the purge: the answer still tells what the endpoint did.
    const [done] = await endAttempts(tx, [{ delivery, result, sentAt }]);
    if (done) {
      const recordedAt = clock.now();
      const failures = await tx.webhooks.recordDelivery(target.webhookId, recordedAt, [result.status]);
      await failPastThreshold(tx.webhooks, target.webhookId, failures, ports.failureThreshold, recordedAt);
    }
    return done ?? { ...delivery, ...result, attemptedAt: sentAt };
  });
}

/** POST /v1/webhooks/{id}/deliveries {eventType}: sends a webhook.test event now. */
export class SendTestDelivery {
  constructor(
    private readonly uow: UnitOfWork<Scope>,
    private readonly clock: Clock,
    private readonly ports: WebhookDeliveryPorts,
  ) {}

  async execute(input: WebhookTarget & { readonly eventType: string }): Promise<WebhookDelivery> {
    const [requested] = parseEventTypes([input.eventType], 'eventType');
    const eventId = this.ports.eventIds.eventId();
    const createdAt = this.clock.now().toISOString();
    return sendNow(this.uow, this.clock, this.ports, input, (webhook) => {
      const { id, url } = webhook.toSnapshot();
      const payload = JSON.stringify({ id: eventId, type: 'webhook.test', createdAt, data: { webhook: { id, url }, eventType: requested } });
      return { eventId, eventType: 'webhook.test', attempt: 1, scheduleStep: null, payload };
    });
  }
}

/**
 * POST /v1/webhooks/{id}/deliveries {eventId}: a new attempt of one of the customer's events (still kept: see
 * EVENT_RETENTION_DAYS), numbered after its earlier attempts at this webhook, with the same webhook-id and body.
 */
export class RedeliverEvent {
  constructor(
    private readonly uow: UnitOfWork<Scope>,
    private readonly clock: Clock,
    private readonly ports: WebhookDeliveryPorts,
    private readonly events: EventQueries,
  ) {}

  async execute(input: WebhookTarget & { readonly eventId: string }): Promise<WebhookDelivery> {
    // Read by the read port before the transaction (an event never changes), and refused in it after the webhook.
    const found = await this.events.get(input.eventId);
    return sendNow(this.uow, this.clock, this.ports, input, async (webhook, tx) => {
      const event = ownedBy(found, input.customerId, 'event', input.eventId);
      // Held until the attempt is stored: purged meanwhile, the event would leave it to no purge (attempts go with theirs).
      if (!(await tx.eventFeed.hold(event.id))) throw new NotFoundError('event', event.id);
      // Before the dispatcher has scheduled the event, number 1 stays its automatic first attempt's: taken here, the
      // dispatcher's would be dropped as a repeat, and with it the event's retries at this webhook.
      const first = (await tx.eventFeed.isPending(event.id)) ? 1 : 0;
      const attempt = Math.max(await tx.webhookDeliveries.lastAttempt(webhook.id, event.id), first) + 1;
      return { eventId: event.id, eventType: event.type, attempt, scheduleStep: null, payload: eventPayload(event) };
    });
  }
}
