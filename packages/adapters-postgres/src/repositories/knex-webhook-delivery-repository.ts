import type { Knex } from 'knex';
import {
  CLAIM_SCAN_FACTOR,
  EXPIRED_REASON,
  type ClaimedDelivery,
  type Completion,
  type DeliveryClaim,
  type DeliveryLease,
  type DeliveryStatus,
  type EventType,
  type NewWebhookDelivery,
  type ScheduledDelivery,
  type WebhookDelivery,
  type WebhookDeliveryRepository,
} from '@rcs/domain';
import { prepared } from './prepared';
import type { TransactionWrites } from './transaction-writes';

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

/** Which attempt of which event at which webhook a row is. */
const attemptOf = (row: Pick<DeliveryRow, 'id' | 'webhook_id' | 'customer_id' | 'event_id' | 'event_type' | 'attempt' | 'created_at'>) => ({
  id: Number(row.id),
  webhookId: Number(row.webhook_id),
  customerId: Number(row.customer_id),
  eventId: row.event_id,
  eventType: row.event_type,
  attempt: row.attempt,
  createdAt: row.created_at,
});

export const toDelivery = (row: DeliveryRow): WebhookDelivery => ({
  ...attemptOf(row),
  status: row.status,
  responseCode: row.response_code,
  durationMs: row.duration_ms,
  failureReason: row.failure_reason,
});

/** A leased attempt: what the sender needs of it. */
type ClaimedRow = Pick<DeliveryRow, 'id' | 'webhook_id' | 'customer_id' | 'event_id' | 'event_type' | 'attempt' | 'created_at'> & {
  payload: string;
  lapsed: boolean;
};

/** Rows per INSERT: a statement of a few MB at most (each row carries its payload). */
const INSERT_CHUNK = 1_000;

/** When an attempt is due: its lease's end while leased, else its next attempt's time; neither while held. */
const DUE = 'COALESCE(claimed_until, next_attempt_at)';

/** Due or leased, not held: migration 023's index holds these, by webhook then due time. */
const WORK = `status = 'PENDING' AND ${DUE} IS NOT NULL`;

/**
 * DUE as the lock rechecks it, never due while held as DUE: not the index's expression, so the chosen ids are
 * read by primary key. Written as DUE, the planner scanned the whole of migration 023's index for it instead.
 */
const RECHECKED_DUE = `COALESCE(claimed_until, next_attempt_at, 'infinity')`;

/** The event type of test deliveries, which have no outbox event. */
const TEST_EVENT: EventType = 'webhook.test';

/** Held: PENDING, neither due nor leased (migration 015's partial index). */
const HELD = "status = 'PENDING' AND next_attempt_at IS NULL AND claimed_until IS NULL";
/** Held, or a retry scheduled after a time (the parameter), not leased: what an activation makes due. */
const HELD_OR_LATER = "status = 'PENDING' AND claimed_until IS NULL AND (next_attempt_at IS NULL OR next_attempt_at > ?)";

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
           created_at = COALESCE(r.sent_at, d.created_at), claimed_until = NULL, next_attempt_at = NULL
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
    const inOrder = [...deliveries].sort((a, b) => a.webhookId - b.webhookId);
    for (let start = 0; start < inOrder.length; start += INSERT_CHUNK) {
      const chunk = inOrder.slice(start, start + INSERT_CHUNK);
      await prepared(
        this.trx,
        'webhook_deliveries.schedule',
        `INSERT INTO webhook_deliveries (webhook_id, customer_id, event_id, event_type, attempt, status, payload, created_at, next_attempt_at)
         SELECT webhook_id, customer_id, event_id, event_type, attempt, 'PENDING', payload, created_at, next_attempt_at
         FROM unnest(?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::int[], ?::text[], ?::timestamptz[], ?::timestamptz[])
           AS r (webhook_id, customer_id, event_id, event_type, attempt, payload, created_at, next_attempt_at)
         ON CONFLICT (webhook_id, event_id, attempt) DO NOTHING`,
        [
          chunk.map((d) => d.webhookId),
          chunk.map((d) => d.customerId),
          chunk.map((d) => d.eventId),
          chunk.map((d) => d.eventType),
          chunk.map((d) => d.attempt),
          chunk.map((d) => d.payload),
          chunk.map((d) => d.createdAt),
          chunk.map((d) => d.nextAttemptAt),
        ],
      );
    }
  }

  async claimDue(claim: DeliveryClaim): Promise<ClaimedDelivery[]> {
    // Webhook by webhook: the webhooks whose next-due bound (migration 024) has passed, oldest bound first (skipped
    // ones and shares of 0 left out), the oldest `read` of them, share `read` of their own oldest due attempts
    // equally (the port says how), read in due order from their part of migration 023's index; the oldest `read` of
    // these are read by primary key, the oldest `limit` of them locked with SKIP LOCKED and rechecked: one another
    // worker leased meanwhile is skipped or no longer due, and a worker claiming at the same time takes the next
    // ones. Each webhook read gets its bound raised to when its next attempt is due once this claim's leases are
    // taken (`next`), where its row is unlocked and still the version this snapshot read (`unmoved`): a transaction
    // that made an attempt due after the snapshot wrote the row (migration 024's trigger), and its bound stands. A
    // bound already right is not written again: each write leaves a dead entry in the range the next claims scan.
    // What a claim reads grows with `limit` and the webhooks it reads, never with a backlog or with webhooks whose
    // attempts are due later.
    // Bitmap scans off: a burst newer than the statistics know looks like a few rows, and a bitmap would read a
    // webhook's whole due range and sort it instead of stopping at its part. For this transaction only, put on its
    // connection before the claim, so the claim is planned under it (one round trip with it when pipelining).
    const plan = this.writes.send('webhook_deliveries.claim_plan', `SELECT set_config('enable_bitmapscan', 'off', true)`, []);
    const shares = claim.shares ?? [];
    const read = claim.limit * CLAIM_SCAN_FACTOR;
    const claimed = prepared<ClaimedRow>(
      this.trx,
      'webhook_deliveries.claim',
      `WITH oldest AS (
         SELECT b.webhook_id, b.xmin AS seen, COALESCE(share.n, ?) AS share
         FROM webhook_next_due b LEFT JOIN unnest(?::bigint[], ?::int[]) AS share (webhook_id, n) ON share.webhook_id = b.webhook_id
         WHERE b.due_at <= ? AND b.webhook_id <> ALL(?::bigint[]) AND COALESCE(share.n, ?) > 0 ORDER BY b.due_at, b.webhook_id LIMIT ?
       ), parts AS (
         SELECT webhook_id, LEAST(share, ?, GREATEST(1, CEIL(?::numeric / count(*) OVER ()))::int) AS part FROM oldest
       ), due AS (
         SELECT attempt.id FROM parts CROSS JOIN LATERAL (
           SELECT id, ${DUE} AS due_at FROM webhook_deliveries
           WHERE ${WORK} AND webhook_id = parts.webhook_id AND ${DUE} <= ? ORDER BY webhook_id, ${DUE}, id LIMIT parts.part
         ) attempt
         ORDER BY attempt.due_at, attempt.id LIMIT ?
       ), locked AS (
         SELECT d.id, d.webhook_id, d.claimed_until IS NOT NULL AS lapsed FROM webhook_deliveries d
         WHERE d.id = ANY(ARRAY(SELECT id FROM due)) AND d.status = 'PENDING' AND ${RECHECKED_DUE} <= ?
         ORDER BY ${DUE}, d.id LIMIT ?
         FOR UPDATE OF d SKIP LOCKED
       ), leased AS (
         UPDATE webhook_deliveries d SET claimed_until = ? FROM locked WHERE d.id = locked.id
         RETURNING d.id, d.webhook_id, d.customer_id, d.event_id, d.event_type, d.attempt, d.payload, d.created_at, locked.lapsed
       ), next AS (
         SELECT o.webhook_id, o.seen, LEAST(
           (SELECT ?::timestamptz FROM locked WHERE locked.webhook_id = o.webhook_id LIMIT 1),
           (SELECT ${DUE} FROM webhook_deliveries
            WHERE ${WORK} AND webhook_id = o.webhook_id AND id <> ALL(ARRAY(SELECT id FROM locked)) ORDER BY webhook_id, ${DUE}, id LIMIT 1)
         ) AS due_at
         FROM oldest o
       ), unmoved AS (
         SELECT b.webhook_id, b.xmin AS now_seen FROM webhook_next_due b
         WHERE b.webhook_id = ANY(ARRAY(SELECT webhook_id FROM oldest)) FOR UPDATE OF b SKIP LOCKED
       ), raised AS (
         UPDATE webhook_next_due b SET due_at = next.due_at
         FROM next JOIN unmoved ON unmoved.webhook_id = next.webhook_id AND unmoved.now_seen = next.seen
         WHERE b.webhook_id = next.webhook_id AND b.due_at IS DISTINCT FROM next.due_at
       )
       SELECT * FROM leased`,
      [
        claim.perWebhook,
        shares.map((share) => share.webhookId),
        shares.map((share) => share.perWebhook),
        claim.now,
        claim.skipWebhooks,
        claim.perWebhook,
        read,
        read,
        read,
        claim.now,
        read,
        claim.now,
        claim.limit,
        claim.claimedUntil,
        claim.claimedUntil,
      ],
    );
    const [, { rows }] = await Promise.all([plan, claimed]);
    return rows.map((row) => ({ ...attemptOf(row), payload: row.payload, lapsed: row.lapsed }));
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
}
