import type { webhooks } from './generated/api';

/** The body of a delivery of that event type, as the document's webhooks section describes it. */
export type WebhookEventOf<T extends keyof webhooks> = webhooks[T]['post']['requestBody']['content']['application/json'];

/**
 * The body of any delivery: what `new Webhook(secret).verify(body, headers)` (standardwebhooks) returns once the
 * signature holds. Its `type` narrows `data` to the resource the event is about.
 */
export type WebhookEvent = { [T in keyof webhooks]: WebhookEventOf<T> }[keyof webhooks];
