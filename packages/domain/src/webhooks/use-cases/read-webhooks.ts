import { ownedBy } from '../../shared/owned';
import type { Page, PageRequest } from '../../shared/page';
import type { Webhook } from '../webhook';
import type { WebhookDelivery } from '../webhook-delivery';
import type { WebhookDeliveryListFilter, WebhookListFilter, WebhookQueries } from '../webhook-ports';
import type { WebhookTarget } from './change-webhook';

export class GetWebhook {
  constructor(private readonly queries: WebhookQueries) {}

  async execute(input: WebhookTarget): Promise<Webhook> {
    return ownedBy(await this.queries.get(input.webhookId), input.customerId, 'webhook', input.webhookId);
  }
}

export class ListWebhooks {
  constructor(private readonly queries: WebhookQueries) {}

  execute(input: { filter: WebhookListFilter; page: PageRequest }): Promise<Page<Webhook>> {
    return this.queries.list(input.filter, input.page);
  }
}

/** GET /v1/webhooks/{id}/deliveries: the attempts of the caller's webhook, newest first. */
export class ListWebhookDeliveries {
  constructor(
    private readonly get: GetWebhook,
    private readonly queries: WebhookQueries,
  ) {}

  async execute(
    input: WebhookTarget & { filter: Omit<WebhookDeliveryListFilter, 'webhookId' | 'customerId'>; page: PageRequest },
  ): Promise<Page<WebhookDelivery>> {
    await this.get.execute(input);
    return this.queries.deliveries({ ...input.filter, webhookId: input.webhookId, customerId: input.customerId }, input.page);
  }
}
