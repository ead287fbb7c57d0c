import type { WebhookRepository } from './webhook-ports';

/**
 * The one rule for every attempt, automatic, test or manual redelivery alike (README: WEBHOOK_FAILURE_THRESHOLD):
 * once the webhook's run of consecutive failures (`failures`, as recordDelivery answered it) reaches `threshold`,
 * an ACTIVE webhook becomes FAILED. In the transaction that recorded the attempt.
 */
export async function failPastThreshold(
  webhooks: WebhookRepository,
  webhookId: number,
  failures: number | undefined,
  threshold: number,
  now: Date,
): Promise<void> {
  if (failures === undefined || failures < threshold) return;
  const webhook = await webhooks.getForUpdate(webhookId);
  if (webhook?.status === 'ACTIVE') await webhooks.update(webhook.fail(now));
}
