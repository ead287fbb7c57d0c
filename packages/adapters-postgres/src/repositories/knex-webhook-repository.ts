import type { Knex } from 'knex';
import {
  ConcurrentModificationError,
  DELIVERY_STATUSES,
  runOfFailures,
  Webhook,
  type DeliveryOutcome,
  type EventType,
  type NewWebhook,
  type Page,
  type PageRequest,
  type WebhookListFilter,
  type WebhookQueries,
  type WebhookRepository,
  type WebhookDelivery,
  type WebhookDeliveryListFilter,
  type WebhookStatus,
} from '@rcs/domain';
import { maintainedTotal, type CountedList } from './list-counts';
import { applyCommonFilter, fetchPage } from './paging';
import { prepared } from './prepared';
import { lockedForChange } from './row-locks';
import { toDelivery, type DeliveryRow } from './webhook-delivery-rows';

interface WebhookRow {
  id: string;
  customer_id: string;
  url: string;
  events: EventType[];
  status: WebhookStatus;
  secret_sealed: string;
  secret_tail: string;
  /** Newest first; expiresAt as JSON keeps it, an ISO timestamp. */
  previous_secrets: Array<{ sealed: string; expiresAt: string }>;
  last_delivery_at: Date | null;
  last_delivery_status: DeliveryOutcome | null;
  creation_date: Date;
  modification_date: Date;
  version: number;
}

const toWebhook = (row: WebhookRow): Webhook =>
  Webhook.rehydrate({
    id: Number(row.id),
    customerId: Number(row.customer_id),
    url: row.url,
    events: row.events,
    status: row.status,
    secrets: {
      current: { sealed: row.secret_sealed, tail: row.secret_tail },
      previous: row.previous_secrets.map(({ sealed, expiresAt }) => ({ sealed, expiresAt: new Date(expiresAt) })),
    },
    lastDeliveryAt: row.last_delivery_at,
    lastDeliveryStatus: row.last_delivery_status,
    creationDate: row.creation_date,
    modificationDate: row.modification_date,
    version: row.version,
  });

const toRow = (w: NewWebhook) => ({
  customer_id: w.customerId,
  url: w.url,
  events: [...w.events],
  status: w.status,
  secret_sealed: w.secrets.current.sealed,
  secret_tail: w.secrets.current.tail,
  previous_secrets: JSON.stringify(w.secrets.previous),
  last_delivery_at: w.lastDeliveryAt,
  last_delivery_status: w.lastDeliveryStatus,
  creation_date: w.creationDate,
  modification_date: w.modificationDate,
  version: w.version,
});

export class KnexWebhookRepository implements WebhookRepository {
  constructor(private readonly trx: Knex.Transaction) {}

  async getForUpdate(id: number): Promise<Webhook | undefined> {
    const row = await lockedForChange(this.trx('webhooks').where({ id })).first<WebhookRow | undefined>();
    return row && toWebhook(row);
  }

  async insert(webhook: NewWebhook): Promise<Webhook> {
    const [row] = await this.trx('webhooks').insert(toRow(webhook)).returning<WebhookRow[]>('*');
    return toWebhook(row);
  }

  async update(webhook: Webhook): Promise<void> {
    const next = webhook.toSnapshot();
    // The last delivery is the sender's to record (recordDelivery): a change made meanwhile must not undo it.
    const { last_delivery_at: _at, last_delivery_status: _status, ...row } = toRow(next);
    const changed = await this.trx('webhooks')
      .where({ id: next.id, version: next.version - 1 })
      .update(row);
    if (changed !== 1) throw new ConcurrentModificationError('webhook', next.id);
  }

  async delete(id: number): Promise<void> {
    // Migration 046's trigger records the deletion for the purge of its attempts.
    await this.trx('webhooks').where({ id }).delete();
  }

  async recordDelivery(id: number, at: Date, outcomes: readonly DeliveryOutcome[]): Promise<number | undefined> {
    // The run before them, read under the row's lock in the same statement, gives its longest while they counted.
    const { after } = runOfFailures(0, outcomes);
    const ended = outcomes.includes('SUCCESS');
    const { rows } = await prepared<{ before: number }>(
      this.trx,
      'webhooks.record_delivery',
      `WITH before AS (SELECT consecutive_failures FROM webhooks WHERE id = ? FOR NO KEY UPDATE)
       UPDATE webhooks w
       SET last_delivery_at = ?, last_delivery_status = ?,
           consecutive_failures = CASE WHEN ?::boolean THEN 0 ELSE before.consecutive_failures END + ?::int
       FROM before WHERE w.id = ?
       RETURNING before.consecutive_failures AS before`,
      [id, at, outcomes[outcomes.length - 1], ended, after, id],
    );
    return rows[0] && runOfFailures(rows[0].before, outcomes).longest;
  }

  async lockForRecording(ids: readonly number[]): Promise<ReadonlySet<number>> {
    // Prepared, the ids as one array: once per batch of results, built by Knex it cost more CPU than its round trip.
    const { rows } = await prepared<{ id: string }>(
      this.trx,
      'webhooks.lock_for_recording',
      'SELECT id FROM webhooks WHERE id = ANY(?::bigint[]) ORDER BY id FOR NO KEY UPDATE',
      [ids],
    );
    return new Set(rows.map((row) => Number(row.id)));
  }

  async resetFailures(id: number): Promise<void> {
    await this.trx('webhooks').where({ id }).update({ consecutive_failures: 0 });
  }

  async lockedStatuses(ids: readonly number[], wait: boolean): Promise<Map<number, WebhookStatus>> {
    // FOR SHARE: an activation (FOR UPDATE) waits for this transaction, or is read here as it committed.
    const locking = this.trx('webhooks').whereIn('id', ids).orderBy('id').forShare();
    const rows = await (wait ? locking : locking.skipLocked()).select<Array<{ id: string; status: WebhookStatus }>>('id', 'status');
    return new Map(rows.map((row) => [Number(row.id), row.status]));
  }

  async ofCustomers(customerIds: readonly number[]): Promise<Webhook[]> {
    const rows = await this.trx('webhooks').whereIn('customer_id', customerIds).select<WebhookRow[]>('*');
    return rows.map(toWebhook);
  }

  async findMany(ids: readonly number[]): Promise<Webhook[]> {
    // Prepared, as lockForRecording: once per claim.
    const { rows } = await prepared<WebhookRow>(this.trx, 'webhooks.find_many', 'SELECT * FROM webhooks WHERE id = ANY(?::bigint[])', [ids]);
    return rows.map(toWebhook);
  }
}

/** Webhooks by customer, and one webhook's attempts with or without status (migration 018). */
const COUNTED: CountedList<WebhookListFilter> = { list: 'webhooks', scopes: {}, status: null };
const COUNTED_DELIVERIES: CountedList<WebhookDeliveryListFilter> = { list: 'webhook_deliveries', scopes: { webhookId: 'webhook' } };

export class KnexWebhookQueries implements WebhookQueries {
  /** `db` gives what a read runs on: the pool, or the transaction the storage ports are bound to. */
  constructor(private readonly db: () => Knex) {}

  async get(id: number): Promise<Webhook | undefined> {
    const row = await this.db()('webhooks').where({ id }).first<WebhookRow | undefined>();
    return row && toWebhook(row);
  }

  list(filter: WebhookListFilter, page: PageRequest): Promise<Page<Webhook>> {
    const query = applyCommonFilter(this.db()('webhooks').where('customer_id', filter.customerId), filter, 'webhooks');
    return fetchPage(query, 'webhooks', page, toWebhook, { total: maintainedTotal(this.db(), COUNTED, filter) });
  }

  deliveries(filter: WebhookDeliveryListFilter, page: PageRequest): Promise<Page<WebhookDelivery>> {
    // Of a webhook that exists: a deleted one's attempts wait for the purge (migration 034), in no answer, even one
    // read between the webhook's and its history's.
    const query = this.db()('webhook_deliveries')
      .where('webhook_id', filter.webhookId)
      .whereExists(this.db()('webhooks').where({ id: filter.webhookId, customer_id: filter.customerId }).select(this.db().raw('1')));
    if (filter.fromDate !== undefined) query.where('created_at', '>=', filter.fromDate);
    if (filter.toDate !== undefined) query.where('created_at', '<=', filter.toDate);
    if (filter.status !== undefined) query.where('status', filter.status);
    if (filter.eventType !== undefined) query.where('event_type', filter.eventType);
    if (filter.eventId !== undefined) query.where('event_id', filter.eventId);
    // One event type's attempts without a status: merged status ranges of its index (migration 040).
    const branches = filter.eventType !== undefined && filter.status === undefined ? { column: 'status', values: DELIVERY_STATUSES } : undefined;
    return fetchPage<DeliveryRow, WebhookDelivery>(query, 'webhook_deliveries', page, toDelivery, {
      orderBy: { column: 'created_at', order: 'desc' },
      total: maintainedTotal(this.db(), COUNTED_DELIVERIES, filter),
      branches,
    });
  }
}
