import type { AnswerAtRest } from '../idempotency/idempotent-execution';
import type { StoredResponse } from '../idempotency/idempotency-repository';
import type { WebhookSecretVault } from './webhook-ports';

/**
 * The answer of a webhook's creation or rotation as its Idempotency-Key keeps it: the `secret` member sealed by
 * the vault, as the webhooks table keeps it, and opened again for a replay. Only that string's text changes in
 * the body, so the replay is the first answer byte for byte. A refusal kept under the key carries no secret and
 * is stored as it is.
 */
const CLEAR_SECRET_PREFIX = 'whsec_';

export function webhookSecretAtRest(vault: WebhookSecretVault): AnswerAtRest {
  return {
    seal: (response) => swapSecret(response, (secret) => vault.seal(secret)),
    // An answer stored before answers were sealed holds the clear secret: replayed as it is (a replay must not fail),
    // and gone with its key within 24 hours.
    open: (stored) => swapSecret(stored, (sealed) => (sealed.startsWith(CLEAR_SECRET_PREFIX) ? sealed : vault.open(sealed))),
  };
}

function swapSecret(response: StoredResponse, swap: (secret: string) => string): StoredResponse {
  if (response.body === null) return response;
  const { secret } = JSON.parse(response.body) as { secret?: unknown };
  if (typeof secret !== 'string') return response;
  // Random text, so it occurs once: as the member's value. A function replacement takes `$` literally.
  return { ...response, body: response.body.replace(JSON.stringify(secret), () => JSON.stringify(swap(secret))) };
}
