import type { Webhook, WebhookDelivery } from '@rcs/domain';

/** A webhook; `secret` only in the answers of creation and rotation (SPEC). */
export function webhookResponse(webhook: Webhook, secret?: string) {
  const w = webhook.toSnapshot();
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    status: w.status,
    ...(secret === undefined ? {} : { secret }),
    secretMaskedTail: `...${w.secrets.current.tail}`,
    lastDeliveryAt: w.lastDeliveryAt?.toISOString() ?? null,
    lastDeliveryStatus: w.lastDeliveryStatus,
    creationDate: w.creationDate.toISOString(),
    modificationDate: w.modificationDate.toISOString(),
  };
}

export function deliveryResponse(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    attempt: delivery.attempt,
    status: delivery.status,
    responseCode: delivery.responseCode,
    durationMs: delivery.durationMs,
    failureReason: delivery.failureReason,
    creationDate: delivery.createdAt.toISOString(),
    attemptedAt: delivery.attemptedAt?.toISOString() ?? null,
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
  };
}
