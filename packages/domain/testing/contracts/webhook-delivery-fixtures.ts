import { Webhook, type DeliveryClaim, type ScheduledDelivery } from '../../src';
import type { useHarness } from './harness';

/** Before every other suite's dates, so a claim here never takes their attempts. */
export const T0 = new Date('2024-01-01T10:00:00.000Z');
export const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
export const FAILED = { status: 'FAILED', responseCode: 500, durationMs: 3, failureReason: 'answered 500' } as const;

/** Webhooks and their attempts for the delivery contracts, claimed as the worker claims them. */
export function deliveryFixtures(ctx: ReturnType<typeof useHarness>) {
  let events = 0;
  const webhookOf = async (customerId?: number) => {
    const owner = customerId ?? (await ctx.newCustomer());
    const subscription = { url: 'https://erp.example/hooks', events: ['receivable.paid' as const] };
    return ctx.h.uow.run((tx) => tx.webhooks.insert(Webhook.register(owner, subscription, { sealed: 's', tail: '0000' }, at(0))));
  };
  const attempt = (webhook: Webhook, overrides: Partial<ScheduledDelivery> = {}): ScheduledDelivery => {
    const eventId = `evt_c${process.pid}x${++events}`;
    return {
      webhookId: webhook.id,
      customerId: webhook.customerId,
      eventId,
      eventType: 'receivable.paid',
      attempt: 1,
      scheduleStep: 1,
      payload: `{"id":"${eventId}"}`,
      createdAt: at(0),
      nextAttemptAt: at(0),
      ...overrides,
    };
  };
  const schedule = (deliveries: ScheduledDelivery[]) => ctx.h.uow.run((tx) => tx.webhookDeliveries.schedule(deliveries));
  /** Due at(1), leased until at(2) unless overridden; what it took of `webhooks` (it may lease others'). */
  const claim = (webhooks: Webhook[], overrides: Partial<DeliveryClaim> = {}) =>
    ctx.h.uow
      .run((tx) => tx.webhookDeliveries.claimDue({ now: at(1), claimedUntil: at(2), limit: 100, perWebhook: 100, skipWebhooks: [], ...overrides }))
      .then((claimed) => claimed.filter((d) => webhooks.some((w) => w.id === d.webhookId)));
  const statuses = async (webhook: Webhook) => {
    const history = await ctx.h.webhookQueries.deliveries({ webhookId: webhook.id, customerId: webhook.customerId }, { page: 1, count: 100 });
    return history.items.map((d) => [d.eventId, d.status, d.failureReason]);
  };
  return { webhookOf, attempt, schedule, claim, statuses };
}
