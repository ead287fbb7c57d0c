import type { Clock } from '../../shared/clock';
import { ownedBy } from '../../shared/owned';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { parseEventTypes } from '../webhook';
import type { WebhookDelivery } from '../webhook-delivery';
import type { WebhookDeliveryPorts } from '../webhook-ports';
import type { WebhookTarget } from './change-webhook';

/**
 * POST /v1/webhooks/{id}/deliveries {eventType}: sends a webhook.test event now, whatever the webhook's status and
 * subscriptions, and answers how the endpoint took it. The attempt is recorded PENDING under a lease before the
 * call and completed after it, each in a transaction of its own: none stays open across the call.
 */
export class SendTestDelivery {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'webhooks' | 'webhookDeliveries'>>,
    private readonly clock: Clock,
    private readonly ports: WebhookDeliveryPorts,
  ) {}

  async execute(input: WebhookTarget & { readonly eventType: string }): Promise<WebhookDelivery> {
    const [requested] = parseEventTypes([input.eventType], 'eventType');
    const now = this.clock.now();
    const eventId = this.ports.eventIds.eventId();
    const { delivery, request } = await this.uow.run(async (tx) => {
      const webhook = ownedBy(await tx.webhooks.getForUpdate(input.webhookId), input.customerId, 'webhook', input.webhookId);
      const { id, url } = webhook.toSnapshot();
      const body = JSON.stringify({ id: eventId, type: 'webhook.test', createdAt: now.toISOString(), data: { webhook: { id, url }, eventType: requested } });
      const attempt = { webhookId: id, customerId: input.customerId, eventId, eventType: 'webhook.test' as const, attempt: 1, payload: body };
      return {
        delivery: await tx.webhookDeliveries.insert({ ...attempt, createdAt: now, claimedUntil: new Date(now.getTime() + this.ports.leaseMs) }),
        request: { url, eventId, body, secrets: webhook.signingSecrets(now).map((sealed) => this.ports.vault.open(sealed)) },
      };
    });
    const result = await this.ports.sender.send(request);
    return this.uow.run(async (tx) => {
      // Deleted meanwhile, the webhook took its history with it: the answer still tells what the endpoint did.
      const done = await tx.webhookDeliveries.complete(delivery.id, result);
      if (done) await tx.webhooks.recordDelivery(input.webhookId, this.clock.now(), result.status);
      return done ?? { ...delivery, ...result };
    });
  }
}
