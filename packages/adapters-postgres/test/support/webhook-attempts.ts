import { Webhook, type ScheduledDelivery } from '@rcs/domain';
import type { KnexUnitOfWork } from '../../src/knex-unit-of-work';

/** A webhook of `customerId` subscribed to receivable.paid, registered at `at`. */
export const registerWebhook = (uow: KnexUnitOfWork, customerId: number, at: Date) =>
  uow.run((tx) =>
    tx.webhooks.insert(Webhook.register(customerId, { url: 'https://erp.example/hooks', events: ['receivable.paid'] }, { sealed: 's', tail: '0000' }, at)),
  );

/** A new webhook's id, with `count` first attempts of distinct events, the nth made and due as `timing(n)` says. */
export async function webhookWithAttempts(
  uow: KnexUnitOfWork,
  customerId: number,
  count: number,
  timing: (n: number) => Pick<ScheduledDelivery, 'createdAt' | 'nextAttemptAt'>,
  registeredAt: Date,
): Promise<number> {
  const webhook = await registerWebhook(uow, customerId, registeredAt);
  await uow.run((tx) =>
    tx.webhookDeliveries.schedule(
      Array.from({ length: count }, (_, n) => ({
        webhookId: webhook.id,
        customerId,
        eventId: `evt_${webhook.id}_${n}`,
        eventType: 'receivable.paid' as const,
        attempt: 1,
        scheduleStep: 1,
        payload: '{}',
        ...timing(n),
      })),
    ),
  );
  return webhook.id;
}
