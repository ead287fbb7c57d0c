import type { Knex } from 'knex';
import { CLAIM_SCAN_FACTOR, type ClaimedDelivery, type DeliveryClaim } from '@rcs/domain';
import { prepared } from './prepared';
import type { TransactionWrites } from './transaction-writes';
import { attemptOf, scheduleStepOf, type DeliveryRow } from './webhook-delivery-rows';

/** A leased attempt: what the sender needs of it. */
type ClaimedRow = Pick<DeliveryRow, 'id' | 'webhook_id' | 'customer_id' | 'event_id' | 'event_type' | 'attempt' | 'created_at'> & {
  schedule_step: number | null;
  payload: string;
  lapsed: boolean;
};

/** When an attempt is due: its lease's end while leased, else its next attempt's time; neither while held. */
const DUE = 'COALESCE(claimed_until, next_attempt_at)';

/** Due or leased, not held: migration 023's index holds these, by webhook then due time. */
const WORK = `status = 'PENDING' AND ${DUE} IS NOT NULL`;

/**
 * DUE as the lock rechecks it, never due while held as DUE: not the index's expression, so the chosen ids are
 * read by primary key. Written as DUE, the planner scanned the whole of migration 023's index for it instead.
 */
const RECHECKED_DUE = `COALESCE(claimed_until, next_attempt_at, 'infinity')`;

export async function claimDueAttempts(trx: Knex.Transaction, writes: TransactionWrites, claim: DeliveryClaim): Promise<ClaimedDelivery[]> {
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
  const plan = writes.send('webhook_deliveries.claim_plan', `SELECT set_config('enable_bitmapscan', 'off', true)`, []);
  const shares = claim.shares ?? [];
  const read = claim.limit * CLAIM_SCAN_FACTOR;
  const claimed = prepared<ClaimedRow>(
    trx,
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
       RETURNING d.id, d.webhook_id, d.customer_id, d.event_id, d.event_type, d.attempt, d.schedule_step, d.payload, d.created_at, locked.lapsed
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
  return rows.map((row) => ({ ...attemptOf(row), scheduleStep: scheduleStepOf(row), payload: row.payload, lapsed: row.lapsed }));
}
