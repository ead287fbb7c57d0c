import type { DeliveryOutcome } from './webhook';
import type { WebhookRepository } from './webhook-ports';

/**
 * What `outcomes`, in the order their endpoint answered them, make of a run of `before` consecutive failures: its
 * length after them, and its longest while they were counted (a failure lengthens it, a success ends it). The
 * longest is what the threshold is checked against: recorded together, [FAILED, FAILED, SUCCESS] must fail a
 * webhook that recorded one by one would have failed after the second, though the run ends at 0.
 */
export function runOfFailures(before: number, outcomes: readonly DeliveryOutcome[]): { after: number; longest: number } {
  let after = before;
  let longest = 0;
  for (const outcome of outcomes) {
    after = outcome === 'SUCCESS' ? 0 : after + 1;
    longest = Math.max(longest, after);
  }
  return { after, longest };
}

/**
 * The one rule for every attempt, automatic, test or manual redelivery alike (README: WEBHOOK_FAILURE_THRESHOLD):
 * once the webhook's run of consecutive failures (`failures`, the longest recordDelivery answered) reaches
 * `threshold`, an ACTIVE webhook becomes FAILED. In the transaction that recorded the attempts.
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
