import { jsonText } from '../shared/exact-json';
import type { StoredEvent } from './event-feed';

/**
 * An event as integrators see it (CONTRACT "Events and webhooks"): the same envelope from GET /v1/events and in a
 * webhook delivery's body, so a consumer catching up through the API reads what a delivery would have carried.
 */
export function eventEnvelope(event: StoredEvent) {
  return { id: event.id, type: event.type, createdAt: event.occurredAt.toISOString(), data: event.data };
}

/** A webhook delivery's body: the envelope as JSON text, amounts with every digit. */
export const eventPayload = (event: StoredEvent): string => jsonText(eventEnvelope(event))!;
