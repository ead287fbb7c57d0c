import type { TransactionScope } from '../../transaction-scope';
import type { AttemptEnd, WebhookDelivery } from '../webhook-delivery';

/**
 * Ends attempts of the webhooks still there, with their results; the attempts ended (those still PENDING). The
 * webhooks' rows are taken first, all at once, in id order: two instances whose batches share webhooks then never
 * each hold a row the other waits for (a deadlock, found only after deadlock_timeout). A deleted webhook's attempts
 * are left to the purge: ended, they would be retried, and counted, for an endpoint no one receives for.
 */
export async function endAttempts(
  tx: Pick<TransactionScope, 'webhooks' | 'webhookDeliveries'>,
  ends: ReadonlyArray<{ delivery: { readonly id: number; readonly webhookId: number }; result: AttemptEnd; sentAt?: Date }>,
): Promise<WebhookDelivery[]> {
  const present = await tx.webhooks.lockForRecording([...new Set(ends.map(({ delivery }) => delivery.webhookId))]);
  const completions = ends
    .filter(({ delivery }) => present.has(delivery.webhookId))
    .map(({ delivery, result, sentAt }) => ({ id: delivery.id, result, sentAt }));
  return completions.length === 0 ? [] : tx.webhookDeliveries.complete(completions);
}
