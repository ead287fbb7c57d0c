import type { Clock } from '../../shared/clock';
import type { TransactionScope } from '../../transaction-scope';
import type { DispatchEvents } from '../../events/use-cases/dispatch-events';
import type { StoredEvent } from '../../events/event-feed';
import { eventPayload } from '../../events/event-envelope';
import type { ScheduledDelivery } from '../webhook-delivery';
import type { WebhookStatus } from '../webhook';

type Scope = Pick<TransactionScope, 'eventFeed' | 'webhooks' | 'webhookDeliveries'>;

/**
 * The dispatcher: turns each committed event into the first attempt of one delivery per webhook of its customer
 * subscribed to its type, in the transaction that claims the event (so an event stops being pending exactly when
 * its deliveries exist). An ACTIVE webhook's attempt is due now; a PAUSED or FAILED webhook's is held for an
 * activation (CONTRACT: "delivers what it holds"), until WEBHOOK_RETENTION_HOURS expire it; the webhooks it holds
 * for are checked again under a lock (`lockedStatuses`), so an activation racing the dispatch cannot miss them. Events
 * of a customer with no webhook leave nothing behind. The number of events handled.
 */
export class DispatchWebhookEvents {
  constructor(
    private readonly dispatch: DispatchEvents<Scope>,
    private readonly clock: Clock,
  ) {}

  execute(input: { batchSize?: number } = {}): Promise<number> {
    return this.dispatch.execute({ batchSize: input.batchSize, handler: (events, tx) => this.schedule(events, tx) });
  }

  private async schedule(events: readonly StoredEvent[], tx: Scope): Promise<void> {
    const webhooks = await tx.webhooks.ofCustomers([...new Set(events.map((event) => event.customerId))]);
    if (webhooks.length === 0) return;
    const now = this.clock.now();
    const deliveries: ScheduledDelivery[] = [];
    for (const event of events) {
      let payload: string | undefined;
      for (const webhook of webhooks) {
        const { id, customerId, events: subscribed, status } = webhook.toSnapshot();
        if (customerId !== event.customerId || !subscribed.includes(event.type)) continue;
        payload ??= eventPayload(event);
        const nextAttemptAt = status === 'ACTIVE' ? now : null;
        deliveries.push({
          webhookId: id,
          customerId,
          eventId: event.id,
          eventType: event.type,
          attempt: 1,
          scheduleStep: 1,
          payload,
          createdAt: now,
          nextAttemptAt,
        });
      }
    }
    if (deliveries.length === 0) return;
    const held = [...new Set(deliveries.filter((d) => d.nextAttemptAt === null).map((d) => d.webhookId))];
    // Waited for: this transaction holds nothing yet that a webhook's own changes take after its row.
    const statuses = held.length > 0 ? await tx.webhooks.lockedStatuses(held, true) : new Map<number, WebhookStatus>();
    await tx.webhookDeliveries.schedule(
      deliveries.map((d) => (d.nextAttemptAt === null && statuses.get(d.webhookId) === 'ACTIVE' ? { ...d, nextAttemptAt: now } : d)),
    );
  }
}
