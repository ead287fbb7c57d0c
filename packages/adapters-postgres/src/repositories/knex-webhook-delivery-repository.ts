import type { Knex } from 'knex';
import {
  EXPIRED_REASON,
  type ClaimedDelivery,
  type Completion,
  type DeliveryClaim,
  type DeliveryLease,
  type EventType,
  type NewWebhookDelivery,
  type ScheduledDelivery,
  type WebhookDelivery,
  type WebhookDeliveryRepository,
} from '@rcs/domain';
import { prepared } from './prepared';
import type { TransactionWrites } from './transaction-writes';
import { claimDueAttempts } from './webhook-delivery-claim';
import { HISTORY_COLUMNS, storedStep, toDelivery, type DeliveryRow } from './webhook-delivery-rows';

/** Rows per INSERT: a statement of a few MB at most (each row carries its payload). */
const INSERT_CHUNK = 1_000;

/** The event type of test deliveries, which have no outbox event. */
const TEST_EVENT: EventType = 'webhook.test';

/** Held: PENDING, neither due nor leased (migration 015's partial index). */
const HELD = "status = 'PENDING' AND next_attempt_at IS NULL AND claimed_until IS NULL";
/** Held, or a retry scheduled after a time (the parameter), not leased: what an activation makes due. */
const HELD_OR_LATER = "status = 'PENDING' AND claimed_until IS NULL AND (next_attempt_at IS NULL OR next_attempt_at > ?)";

/** The order of migration 011's history index (webhook_id, created_at DESC, id DESC) within one webhook. */
const HISTORY_ORDER = 'created_at DESC, id DESC';

export class KnexWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(
    private readonly trx: Knex.Transaction,
    private readonly writes: TransactionWrites,
  ) {}

  async insert(delivery: NewWebhookDelivery): Promise<WebhookDelivery> {
    const [row] = await this.trx('webhook_deliveries')
      .insert({
        webhook_id: delivery.webhookId,
        customer_id: delivery.customerId,
        event_id: delivery.eventId,
        event_type: delivery.eventType,
        attempt: delivery.attempt,
        schedule_step: storedStep(delivery.scheduleStep),
        status: 'PENDING',
        payload: delivery.payload,
        created_at: delivery.createdAt,
        claimed_until: delivery.claimedUntil,
      })
      .returning<DeliveryRow[]>(HISTORY_COLUMNS);
    return toDelivery(row);
  }

  async complete(completions: readonly Completion[]): Promise<WebhookDelivery[]> {
    // One statement for a batch of results, the rows joined to their results as arrays: the count trigger runs once.
    const { rows } = await prepared<DeliveryRow>(
      this.trx,
      'webhook_deliveries.complete',
      `UPDATE webhook_deliveries d
       SET status = r.status, response_code = r.response_code, duration_ms = r.duration_ms, failure_reason = r.failure_reason,
           attempted_at = r.sent_at, claimed_until = NULL, next_attempt_at = NULL
       FROM unnest(?::bigint[], ?::text[], ?::int[], ?::int[], ?::text[], ?::timestamptz[])
         AS r (id, status, response_code, duration_ms, failure_reason, sent_at)
       WHERE d.id = r.id AND d.status = 'PENDING'
       RETURNING ${HISTORY_COLUMNS.map((column) => `d.${column}`).join(', ')}`,
      [
        completions.map((c) => c.id),
        completions.map((c) => c.result.status),
        completions.map((c) => c.result.responseCode),
        completions.map((c) => c.result.durationMs),
        completions.map((c) => c.result.failureReason),
        completions.map((c) => c.sentAt ?? null),
      ],
    );
    return rows.map(toDelivery);
  }

  async lastAttempt(webhookId: number, eventId: string): Promise<number> {
    const row = await this.trx('webhook_deliveries')
      .where({ webhook_id: webhookId, event_id: eventId })
      .max<{ last: number | null }>({ last: 'attempt' })
      .first();
    return row?.last ?? 0;
  }

  async schedule(deliveries: readonly ScheduledDelivery[]): Promise<void> {
    // Prepared, a column an array: built by Knex, a dispatch's 1,000 rows were 9,000 bindings to place and send.
    // In webhook order (a webhook's own in the order given): each chunk's insert locks its webhooks' next-due rows
    // (migration 024), and transactions scheduling for several webhooks then take them in one order.
    // For the webhooks that exist, each locked once (key share, as a foreign key's check would): a deletion racing
    // the dispatch waits for it, or is waited for and leaves its attempts unwritten, so none appears after it.
    const inOrder = [...deliveries].sort((a, b) => a.webhookId - b.webhookId);
    for (let start = 0; start < inOrder.length; start += INSERT_CHUNK) {
      const chunk = inOrder.slice(start, start + INSERT_CHUNK);
      await prepared(
        this.trx,
        'webhook_deliveries.schedule',
        `INSERT INTO webhook_deliveries (webhook_id, customer_id, event_id, event_type, attempt, schedule_step, status, payload, created_at, next_attempt_at)
         SELECT webhook_id, customer_id, event_id, event_type, attempt, schedule_step, 'PENDING', payload, created_at, next_attempt_at
         FROM unnest(?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::int[], ?::smallint[], ?::text[], ?::timestamptz[], ?::timestamptz[])
           AS r (webhook_id, customer_id, event_id, event_type, attempt, schedule_step, payload, created_at, next_attempt_at)
         WHERE r.webhook_id = ANY(ARRAY(SELECT w.id FROM webhooks w WHERE w.id = ANY(?::bigint[]) ORDER BY w.id FOR KEY SHARE))
         ON CONFLICT (webhook_id, event_id, attempt) DO NOTHING`,
        [
          chunk.map((d) => d.webhookId),
          chunk.map((d) => d.customerId),
          chunk.map((d) => d.eventId),
          chunk.map((d) => d.eventType),
          chunk.map((d) => d.attempt),
          chunk.map((d) => storedStep(d.scheduleStep)),
          chunk.map((d) => d.payload),
          chunk.map((d) => d.createdAt),
          chunk.map((d) => d.nextAttemptAt),
          [...new Set(chunk.map((d) => d.webhookId))],
        ],
      );
    }
  }

  claimDue(claim: DeliveryClaim): Promise<ClaimedDelivery[]> {
    return claimDueAttempts(this.trx, this.writes, claim);
  }

  async hold(ids: readonly number[]): Promise<void> {
    await this.trx('webhook_deliveries').whereIn('id', ids).update({ next_attempt_at: null, claimed_until: null });
  }

  async unclaim(leases: readonly DeliveryLease[], now: Date): Promise<void> {
    // A test send or a redelivery is leased without a due time: given back, it is due now, not held.
    await this.trx.raw(
      `UPDATE webhook_deliveries d SET claimed_until = NULL, next_attempt_at = COALESCE(d.next_attempt_at, ?)
       FROM unnest(?::bigint[], ?::timestamptz[]) AS lease(id, claimed_until)
       WHERE d.id = lease.id AND d.claimed_until = lease.claimed_until AND d.status = 'PENDING'`,
      [now, leases.map((lease) => lease.id), leases.map((lease) => lease.claimedUntil)],
    );
  }

  async release(webhookId: number, now: Date, heldSince: Date): Promise<{ released: number; expired: number }> {
    const ofWebhook = () => this.trx('webhook_deliveries').where('webhook_id', webhookId);
    const expired = await ofWebhook().whereRaw(HELD).where('created_at', '<', heldSince).update({ status: 'FAILED', failure_reason: EXPIRED_REASON });
    const released = await ofWebhook().whereRaw(HELD_OR_LATER, [now]).update({ next_attempt_at: now });
    return { released, expired };
  }

  async expireHeld(heldBefore: Date, limit: number): Promise<number> {
    const oldest = this.trx('webhook_deliveries')
      .select('id')
      .whereRaw(HELD)
      .where('created_at', '<', heldBefore)
      .orderBy('created_at')
      .limit(limit)
      .forUpdate()
      .skipLocked();
    return this.trx('webhook_deliveries').whereIn('id', oldest).update({ status: 'FAILED', failure_reason: EXPIRED_REASON });
  }

  async purgeTestAttempts(before: Date, limit: number): Promise<number> {
    // Migration 020's partial index: the oldest test attempts, without reading the others.
    const oldest = this.trx('webhook_deliveries')
      .select('id')
      .where('event_type', TEST_EVENT)
      .where('created_at', '<', before)
      .whereNot('status', 'PENDING')
      .orderBy('created_at')
      .limit(limit)
      .forUpdate()
      .skipLocked();
    return this.trx('webhook_deliveries').whereIn('id', oldest).delete();
  }

  async purgeOfDeletedWebhooks(limit: number): Promise<number> {
    // Migration 034. Each deleted webhook's attempts in the history index's order, so the plan reads that index and
    // stops at `limit`, whatever else the table holds (a LIMIT alone made it a sequential scan, reading every other
    // webhook's attempts to find these), then deleted by primary key (matched by IN, a batch of thousands was hashed
    // and the whole table scanned against it). Those a worker still holds wait for a later run, and keep their
    // webhook's deletion until then. The deletions are few: each is forgotten once its attempts are gone.
    const { rows } = await this.trx.raw<{ rows: Array<{ webhook_id: string; purged: string }> }>(
      `WITH purged AS (
         DELETE FROM webhook_deliveries WHERE id = ANY(ARRAY(
           SELECT d.id FROM deleted_webhooks g CROSS JOIN LATERAL (
             SELECT id FROM webhook_deliveries WHERE webhook_id = g.webhook_id ORDER BY ${HISTORY_ORDER} LIMIT ? FOR UPDATE SKIP LOCKED
           ) d
           LIMIT ?
         )) RETURNING webhook_id
       )
       SELECT webhook_id, count(*) AS purged FROM purged GROUP BY webhook_id`,
      [limit, limit],
    );
    const purged = rows.reduce((sum, row) => sum + Number(row.purged), 0);
    // The deletion's count triggers put back counts of these webhooks, which their own deletion had removed.
    if (rows.length > 0) {
      await this.trx.raw(
        `DELETE FROM list_counts c USING deleted_webhooks g
         WHERE g.webhook_id = ANY(?::bigint[])
           AND c.list = 'webhook_deliveries' AND c.customer_id = g.customer_id AND c.scope = 'webhook' AND c.scope_id = g.webhook_id`,
        [rows.map((row) => row.webhook_id)],
      );
    }
    if (purged < limit) {
      // A scalar subquery keeps its ORDER BY (an EXISTS drops it), so it too reads the index.
      await this.trx.raw(
        `DELETE FROM deleted_webhooks g
         WHERE (SELECT id FROM webhook_deliveries d WHERE d.webhook_id = g.webhook_id ORDER BY ${HISTORY_ORDER} LIMIT 1) IS NULL`,
      );
    }
    return purged;
  }
}
