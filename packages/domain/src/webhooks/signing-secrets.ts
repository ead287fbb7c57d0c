import type { Webhook } from './webhook';
import type { DeliveryResult } from './webhook-delivery';
import type { WebhookRequest, WebhookSecretVault, WebhookSender } from './webhook-ports';

/**
 * A webhook's signing secrets that the vault opens. One it cannot (sealed under a WEBHOOK_SECRET_KEY since replaced,
 * or damaged) is left out: thrown, it stopped every webhook's attempts claimed with this one's, and kept the webhook
 * unsigned for the 24 h a rotation keeps the replaced secret.
 */
export function openedSecrets(webhook: Webhook, now: Date, vault: WebhookSecretVault): string[] {
  return webhook.signingSecrets(now).flatMap((sealed) => {
    try {
      return [vault.open(sealed)];
    } catch {
      return [];
    }
  });
}

const UNSIGNABLE: DeliveryResult = {
  status: 'FAILED',
  responseCode: null,
  durationMs: 0,
  failureReason: 'not sent: no signing secret of the webhook can be read (WEBHOOK_SECRET_KEY changed since it was sealed); rotate its secret',
};

/** `request` sent; one with no secret (none of its webhook's opens) is never sent unsigned but failed, its history saying how to mend it. */
export function sendSigned(sender: WebhookSender, request: WebhookRequest): Promise<DeliveryResult> {
  return request.secrets.length === 0 ? Promise.resolve(UNSIGNABLE) : sender.send(request);
}
