import type { AttemptOutcome } from './webhook-delivery';
import type { WebhookRepository } from './webhook-ports';

/** A webhook's run of consecutive failed attempts, and when the last one it counted was answered. */
export interface FailureRun {
  readonly length: number;
  readonly countedUntil: Date | null;
}

export const NO_FAILURES: FailureRun = { length: 0, countedUntil: null };

/**
 * What `outcomes`, in the order their endpoint answered them, make of a run of failures: its state after them,
 * and its longest length while they were counted. A success ends the run. A failure lengthens it only when its
 * attempt was sent after the last counted failure was answered: the attempts in flight together when an endpoint
 * goes down (a restart, a second's outage behind a backlog) count once, as one failure of the endpoint, and each
 * later send that fails, a retry or a new event's, counts. The longest is what the threshold is checked against:
 * recorded together, [FAILED, FAILED, SUCCESS] must fail a webhook that recorded one by one would have failed after
 * the second, though the run ends at 0.
 */
export function runOfFailures(before: FailureRun, outcomes: readonly AttemptOutcome[]): { after: FailureRun; longest: number } {
  let after = before;
  let longest = 0;
  for (const outcome of outcomes) {
    if (outcome.status === 'SUCCESS') after = NO_FAILURES;
    else if (after.countedUntil === null || outcome.sentAt > after.countedUntil) after = { length: after.length + 1, countedUntil: outcome.answeredAt };
    longest = Math.max(longest, after.length);
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
