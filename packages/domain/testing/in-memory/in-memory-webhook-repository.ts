import {
  ConcurrentModificationError,
  Webhook,
  type DeliveryOutcome,
  type DeliveryResult,
  type NewWebhook,
  type NewWebhookDelivery,
  type Page,
  type PageRequest,
  type WebhookDelivery,
  type WebhookDeliveryListFilter,
  type WebhookDeliveryRepository,
  type WebhookListFilter,
  type WebhookQueries,
  type WebhookRepository,
} from '../../src';
import { nextId, saveVersioned, type StoredDelivery, type TablesRef, type TablesSource } from './in-memory-tables';
import { matchesCommon, pageOf } from './in-memory-paging';

/** The history's view of a stored attempt. */
const historyOf = ({ payload: _payload, claimedUntil: _claimedUntil, ...delivery }: StoredDelivery): WebhookDelivery => delivery;

export class InMemoryWebhookRepository implements WebhookRepository {
  constructor(private readonly ref: TablesRef) {}

  async getForUpdate(id: number): Promise<Webhook | undefined> {
    const found = this.ref.tables.webhooks.get(id);
    return found && Webhook.rehydrate(found);
  }

  async insert(webhook: NewWebhook): Promise<Webhook> {
    const stored = { ...webhook, id: nextId(this.ref.tables, 'webhook') };
    this.ref.tables.webhooks.set(stored.id, stored);
    return Webhook.rehydrate(stored);
  }

  async update(webhook: Webhook): Promise<void> {
    const next = webhook.toSnapshot();
    saveVersioned(this.ref.tables.webhooks, next, () => new ConcurrentModificationError('webhook', next.id));
  }

  async delete(id: number): Promise<void> {
    this.ref.tables.webhooks.delete(id);
    for (const [deliveryId, delivery] of this.ref.tables.webhookDeliveries) {
      if (delivery.webhookId === id) this.ref.tables.webhookDeliveries.delete(deliveryId);
    }
  }

  async recordDelivery(id: number, at: Date, outcome: DeliveryOutcome): Promise<void> {
    const found = this.ref.tables.webhooks.get(id);
    if (found) this.ref.tables.webhooks.set(id, { ...found, lastDeliveryAt: at, lastDeliveryStatus: outcome });
  }
}

export class InMemoryWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(private readonly ref: TablesRef) {}

  async insert(delivery: NewWebhookDelivery): Promise<WebhookDelivery> {
    const { claimedUntil, ...rest } = delivery;
    const stored: StoredDelivery = {
      ...rest,
      id: nextId(this.ref.tables, 'webhook-delivery'),
      status: 'PENDING',
      responseCode: null,
      durationMs: null,
      failureReason: null,
      claimedUntil,
    };
    this.ref.tables.webhookDeliveries.set(stored.id, stored);
    return historyOf(stored);
  }

  async complete(id: number, result: DeliveryResult): Promise<WebhookDelivery | undefined> {
    const found = this.ref.tables.webhookDeliveries.get(id);
    if (!found) return undefined;
    const done: StoredDelivery = { ...found, ...result, claimedUntil: null };
    this.ref.tables.webhookDeliveries.set(id, done);
    return historyOf(done);
  }
}

export class InMemoryWebhookQueries implements WebhookQueries {
  constructor(private readonly source: TablesSource) {}

  async get(id: number): Promise<Webhook | undefined> {
    const found = this.source.visibleTables().webhooks.get(id);
    return found && Webhook.rehydrate(found);
  }

  async list(filter: WebhookListFilter, page: PageRequest): Promise<Page<Webhook>> {
    const rows = [...this.source.visibleTables().webhooks.values()].filter((w) => w.customerId === filter.customerId && matchesCommon(w, filter));
    return pageOf(rows, page, (row) => Webhook.rehydrate(row));
  }

  async deliveries(filter: WebhookDeliveryListFilter, page: PageRequest): Promise<Page<WebhookDelivery>> {
    const rows = [...this.source.visibleTables().webhookDeliveries.values()]
      .filter(
        (d) =>
          d.webhookId === filter.webhookId &&
          (filter.fromDate === undefined || d.createdAt >= filter.fromDate) &&
          (filter.toDate === undefined || d.createdAt <= filter.toDate) &&
          (filter.status === undefined || d.status === filter.status) &&
          (filter.eventType === undefined || d.eventType === filter.eventType) &&
          (filter.eventId === undefined || d.eventId === filter.eventId),
      )
      .map((d) => ({ ...d, creationDate: d.createdAt }));
    return pageOf(rows, page, ({ creationDate: _creationDate, ...delivery }) => historyOf(delivery));
  }
}
