import type { Knex } from 'knex';
import type { DeliveryResult, DeliveryStatus, EventType, NewWebhookDelivery, WebhookDelivery, WebhookDeliveryRepository } from '@rcs/domain';

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  customer_id: string;
  event_id: string;
  event_type: EventType;
  attempt: number;
  status: DeliveryStatus;
  response_code: number | null;
  duration_ms: number | null;
  failure_reason: string | null;
  created_at: Date;
}

/** The history's columns: never the payload, which only the sender reads. */
const HISTORY_COLUMNS = [
  'id',
  'webhook_id',
  'customer_id',
  'event_id',
  'event_type',
  'attempt',
  'status',
  'response_code',
  'duration_ms',
  'failure_reason',
  'created_at',
] as const;

export const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  id: Number(row.id),
  webhookId: Number(row.webhook_id),
  customerId: Number(row.customer_id),
  eventId: row.event_id,
  eventType: row.event_type,
  attempt: row.attempt,
  status: row.status,
  responseCode: row.response_code,
  durationMs: row.duration_ms,
  failureReason: row.failure_reason,
  createdAt: row.created_at,
});

export class KnexWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(private readonly trx: Knex.Transaction) {}

  async insert(delivery: NewWebhookDelivery): Promise<WebhookDelivery> {
    const [row] = await this.trx('webhook_deliveries')
      .insert({
        webhook_id: delivery.webhookId,
        customer_id: delivery.customerId,
        event_id: delivery.eventId,
        event_type: delivery.eventType,
        attempt: delivery.attempt,
        status: 'PENDING',
        payload: delivery.payload,
        created_at: delivery.createdAt,
        claimed_until: delivery.claimedUntil,
      })
      .returning<DeliveryRow[]>(HISTORY_COLUMNS);
    return toDelivery(row);
  }

  async complete(id: number, result: DeliveryResult): Promise<WebhookDelivery | undefined> {
    const [row] = await this.trx('webhook_deliveries')
      .where({ id })
      .update({
        status: result.status,
        response_code: result.responseCode,
        duration_ms: result.durationMs,
        failure_reason: result.failureReason,
        claimed_until: null,
        next_attempt_at: null,
      })
      .returning<DeliveryRow[]>(HISTORY_COLUMNS);
    return row && toDelivery(row);
  }
}
