import { allItems, type ApiClient, type WebhookEvent } from '@rcs/client';
import { pause, type Report } from './walk';
import { startWebhookReceiver, type ReceiverTls, type WebhookReceiver } from './webhook-receiver';

// Every event type, as an object so the compiler says when the document adds or drops one.
const EVERY_TYPE: Record<WebhookEvent['type'], true> = {
  'receivable-account.activated': true,
  'receivable-account.disabled': true,
  'receivable.created': true,
  'receivable.paid': true,
  'receivable.reopened': true,
  'receivable.expired': true,
  'receivable.disabled': true,
  'receivable.settled': true,
  'movement.created': true,
  'settlement.completed': true,
  'transfer.completed': true,
  'transfer.failed': true,
  'webhook.test': true,
};
export const EVENT_TYPES = Object.keys(EVERY_TYPE) as WebhookEvent['type'][];

/** What the walk does, as events. receivable-account.activated is not among them: a second walk reuses the account. */
const PATH_TYPES: WebhookEvent['type'][] = [
  'receivable.created',
  'receivable.paid',
  'receivable.settled',
  'movement.created',
  'settlement.completed',
  'transfer.completed',
];

/** How long the events of the walk may take to arrive: each is sent within about a second of its commit. */
const ARRIVAL_MS = 30_000;

/**
 * Runs `walk` with a webhook subscribed to every event type, sending to a local HTTPS receiver: registered
 * through the client (its secret, shown only in that answer, goes to the receiver's verifier), checked with a test
 * delivery, then, once the walk is done, every event the service recorded since the registration awaited at the
 * receiver, one redelivered to show it is skipped as a duplicate. The webhook is deleted at the end whatever
 * happened, so no dead endpoint is left failing.
 */
export async function withWebhookReceiver(api: ApiClient, report: Report, tls: ReceiverTls, walk: () => Promise<void>) {
  const receiver = await startWebhookReceiver(tls);
  let webhookId: number | undefined;
  try {
    const { data: webhook } = await api.POST('/v1/webhooks', { body: { url: receiver.url, events: EVENT_TYPES } });
    const { secret, ...shown } = webhook!;
    webhookId = shown.id;
    receiver.verifyWith(secret);
    report('webhook', shown);

    // A test delivery is a webhook.test event whatever type it names: the receiver's check before the walk.
    const deliveries = { params: { path: { id: webhookId } } };
    const { data: test } = await api.POST('/v1/webhooks/{id}/deliveries', { ...deliveries, body: { eventType: 'receivable.created' } });
    report('webhook-test', test);
    if (test!.status !== 'SUCCESS') {
      throw new Error(
        `the service could not deliver to ${receiver.url} (${test!.failureReason}): is it started with WEBHOOK_CA_FILE naming the receiver's certificate?`,
      );
    }

    await walk();

    const events = await pathEvents(api, receiver, shown.creationDate);
    report('webhook-events', events.map(summary));
    const settled = events.find((event) => event.type === 'settlement.completed')!;
    const { data: redelivery } = await api.POST('/v1/webhooks/{id}/deliveries', { ...deliveries, body: { eventId: settled.id } });
    report('webhook-redelivery', redelivery);
    const { duplicates, refused } = receiver.received();
    report('webhook-receiver', { events: events.length, duplicates, refused });
  } finally {
    if (webhookId !== undefined) await api.DELETE('/v1/webhooks/{id}', { params: { path: { id: webhookId } } });
    await receiver.close();
  }
}

/**
 * The received events, oldest first, once every event the service lists since `since` has arrived verified and
 * the path's types are all among them. Deliveries come in any order: `createdAt` orders them.
 */
async function pathEvents(api: ApiClient, receiver: WebhookReceiver, since: string): Promise<WebhookEvent[]> {
  const deadline = Date.now() + ARRIVAL_MS;
  for (;;) {
    const { events } = receiver.received();
    const missing: string[] = [];
    for await (const event of allItems(api, '/v1/events', { query: { fromDate: since } })) if (!events.has(event.id)) missing.push(`${event.type} ${event.id}`);
    const types = new Set([...events.values()].map((event) => event.type));
    missing.push(...PATH_TYPES.filter((type) => !types.has(type)));
    if (missing.length === 0) return [...events.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    if (Date.now() > deadline) throw new Error(`no verified delivery of ${missing.join(', ')} within ${ARRIVAL_MS / 1000} s`);
    await pause();
  }
}

/** An event as the example prints it: its id, type and time, and the id of each resource it carries. */
function summary({ id, type, createdAt, data }: WebhookEvent) {
  const about = Object.entries(data).flatMap(([member, value]) => (typeof value === 'object' ? [[member, (value as { id: number }).id]] : []));
  return { id, type, createdAt, about: Object.fromEntries(about) as Record<string, number> };
}
