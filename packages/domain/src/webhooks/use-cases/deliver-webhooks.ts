import type { Clock } from '../../shared/clock';
import { drain } from '../../shared/drain';
import { GroupCommit } from '../../shared/group-commit';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { failPastThreshold } from '../failure-threshold';
import { nextAttemptAt } from '../retry-schedule';
import type { ClaimedDelivery, DeliveryResult, ScheduledDelivery } from '../webhook-delivery';
import { endAttempts } from './end-attempts';
import { openedSecrets, sendSigned } from '../signing-secrets';
import { LOST_ATTEMPT, type DeliveryLease, type WebhookDeliveryPorts, type WebhookRequest, type WebhookShare } from '../webhook-ports';

type Scope = Pick<TransactionScope, 'webhooks' | 'webhookDeliveries'>;

/** Results recorded in one transaction at most: a batch's transaction stays short. */
const MAX_RECORDS_PER_TRANSACTION = 100;

/** An attempt whose endpoint answered, waiting for its result to be recorded. */
interface Answered {
  readonly delivery: ClaimedDelivery;
  readonly result: DeliveryResult;
  readonly sentAt: Date;
}

/** A leased attempt and the request that sends it. */
export interface DeliveryToSend {
  readonly delivery: ClaimedDelivery;
  readonly request: WebhookRequest;
  /** Its lease's end: past it, another worker may send it too. */
  readonly leasedUntil: Date;
}

/**
 * The delivery worker's two steps, each in short transactions, with the HTTP call between them outside any:
 * `claim` leases due attempts (SKIP LOCKED; a lease longer than the sender's deadline, so a worker that dies
 * mid-call leaves the attempt due again when it lapses: at least once, with the event id as webhook-id), and
 * `send` calls the endpoint and records the result, the next attempt on the CONTRACT schedule when it failed, and
 * the webhook's run of consecutive failures, which past WEBHOOK_FAILURE_THRESHOLD makes an ACTIVE webhook FAILED.
 * Results that come back while others are being recorded are recorded together, in one transaction: each result
 * updates its webhook's row (last delivery, failures), so recorded one transaction each, every delivery to a
 * webhook waited for the previous one's commit to take that row, about a hundred a second here.
 */
export class DeliverWebhooks {
  private readonly results = new GroupCommit<Answered>((results) => this.uow.run((tx) => this.record(tx, results)), MAX_RECORDS_PER_TRANSACTION);

  constructor(
    private readonly uow: UnitOfWork<Scope>,
    private readonly clock: Clock,
    private readonly ports: WebhookDeliveryPorts,
  ) {}

  /**
   * Due attempts of ACTIVE webhooks, leased; those of a PAUSED or FAILED webhook are held for its activation instead.
   * `held`: attempts the caller still holds (sending them, or their answers waiting to be recorded): one of them
   * claimed again after its lease lapsed is the caller's own, leased anew as it is, not taken for lost.
   */
  async claim(input: {
    limit: number;
    perWebhook: number;
    skipWebhooks?: readonly number[];
    shares?: readonly WebhookShare[];
    held?: ReadonlySet<number>;
  }): Promise<DeliveryToSend[]> {
    const now = this.clock.now();
    const leasedUntil = new Date(now.getTime() + this.ports.leaseMs);
    const { toSend, changing } = await this.uow.run(async (tx) => {
      const claimed = await tx.webhookDeliveries.claimDue({
        now,
        claimedUntil: leasedUntil,
        limit: input.limit,
        perWebhook: input.perWebhook,
        skipWebhooks: input.skipWebhooks ?? [],
        shares: input.shares ?? [],
      });
      if (claimed.length === 0) return { toSend: [], changing: [] };
      const webhooks = new Map((await tx.webhooks.findMany([...new Set(claimed.map((d) => d.webhookId))])).map((w) => [w.id, w]));
      // Opened once a webhook, not once an attempt (a claim holds many attempts of few webhooks), and only for the
      // ACTIVE ones, whose attempts are sent.
      const active = [...webhooks.values()].filter((w) => w.status === 'ACTIVE');
      const secrets = new Map(active.map((w) => [w.id, openedSecrets(w, now, this.ports.vault)]));
      const toSend: DeliveryToSend[] = [];
      const held: ClaimedDelivery[] = [];
      for (const delivery of claimed) {
        const webhook = webhooks.get(delivery.webhookId);
        if (!webhook) continue; // Deleted in between: its attempts wait, leased, for the purge.
        if (webhook.status !== 'ACTIVE') {
          held.push(delivery);
          continue;
        }
        toSend.push({
          delivery,
          request: {
            webhookId: webhook.id,
            url: webhook.toSnapshot().url,
            eventId: delivery.eventId,
            body: delivery.payload,
            secrets: secrets.get(webhook.id)!,
          },
          leasedUntil,
        });
      }
      return { toSend, changing: held.length > 0 ? await this.hold(tx, held, leasedUntil) : [] };
    });
    // Given back once the claim's locks are released: in the claim, their next-due bound waited for the webhook's
    // row, which a deletion held while it waited for that bound (a deadlock). Should this fail, their leases lapse
    // and a later claim takes them as lost, sent again.
    if (changing.length > 0) await this.unclaim(changing).catch(() => undefined);
    const lost = (item: DeliveryToSend) => item.delivery.lapsed && !input.held?.has(item.delivery.id);
    return toSend.some(lost) ? this.resendLost(toSend, lost) : toSend;
  }

  /**
   * Attempts claimed after their lease lapsed in another's hands: the worker that had them stopped or overran its
   * lease, and the endpoint may have had them. Each is ended FAILED with no answer (LOST_ATTEMPT), and sent again as
   * the next attempt (numbered after the event's others under the webhook's row lock, as retries and redeliveries
   * are) at the schedule's next step while the CONTRACT schedule has one after it: the history shows every send, the
   * schedule bounds them. A lost test delivery or redelivery is not: outside the schedule, it is its caller's, who
   * had no answer and decides, as after a failure. The lost one does not count in the webhook's run of failures: its
   * endpoint did not fail. One whose first sender recorded an answer meanwhile is not sent again. In a transaction
   * after the claim's (the claim holds attempts, which a webhook's recording takes after the webhook's row); the new
   * attempts are inserted in webhook order, as a dispatch inserts, since each insert takes its webhook's next-due
   * row.
   */
  private async resendLost(toSend: readonly DeliveryToSend[], isLost: (item: DeliveryToSend) => boolean): Promise<DeliveryToSend[]> {
    const lost = toSend.filter(isLost).sort((a, b) => a.delivery.webhookId - b.delivery.webhookId || a.delivery.id - b.delivery.id);
    const now = this.clock.now();
    const again = await this.uow
      .run(async (tx) => {
        const ended = new Set(
          (
            await endAttempts(
              tx,
              lost.map(({ delivery }) => ({ delivery, result: LOST_ATTEMPT })),
            )
          ).map((d) => d.id),
        );
        const made = new Map<number, ClaimedDelivery>();
        for (const { delivery, leasedUntil } of lost) {
          if (!ended.has(delivery.id) || !nextAttemptAt(delivery.scheduleStep, now, this.ports.retryScale)) continue;
          const { id: _id, lapsed: _lapsed, ...attempt } = delivery;
          const number = (await tx.webhookDeliveries.lastAttempt(delivery.webhookId, delivery.eventId)) + 1;
          const next = { ...attempt, attempt: number, scheduleStep: delivery.scheduleStep! + 1, createdAt: now };
          const { id } = await tx.webhookDeliveries.insert({ ...next, claimedUntil: leasedUntil });
          made.set(delivery.id, { ...next, id, lapsed: false });
        }
        return made;
      })
      .catch(async (error: unknown) => {
        // Those claimed fresh were never sent: given back due, not left to lapse and be taken for lost. The lost ones
        // keep this claim's lease and come back here when it lapses; the caller's own still are the caller's.
        await this.giveBack(toSend.filter((item) => !item.delivery.lapsed)).catch(() => undefined);
        throw error;
      });
    return toSend.flatMap((item) => {
      if (!isLost(item)) return [item];
      const delivery = again.get(item.delivery.id);
      return delivery ? [{ ...item, delivery }] : [];
    });
  }

  /**
   * Holds claimed attempts of webhooks read as PAUSED or FAILED, once checked again under a lock; answers the leases
   * of those whose webhook an activation brought back meanwhile, or is changing right now, to be given back due
   * once the claim commits, for the next claim, which reads their webhook afresh. Not waited for: the claim holds
   * attempts and their next-due rows, which a webhook's changes (an activation, a recording, a deletion) take after
   * the webhook's row.
   */
  private async hold(tx: Scope, claimed: readonly ClaimedDelivery[], leasedUntil: Date): Promise<DeliveryLease[]> {
    const statuses = await tx.webhooks.lockedStatuses([...new Set(claimed.map((d) => d.webhookId))], false);
    const stays = (d: ClaimedDelivery) => ![undefined, 'ACTIVE'].includes(statuses.get(d.webhookId));
    const held = claimed.filter(stays);
    if (held.length > 0) await tx.webhookDeliveries.hold(held.map((d) => d.id));
    return claimed.filter((d) => !stays(d)).map((d) => ({ id: d.id, claimedUntil: leasedUntil }));
  }

  /**
   * Gives back claimed attempts the worker will not send (it stops, or they waited too long for a slot): due again
   * at once, for the next claim, which reads their webhook afresh (paused, deleted or re-pointed meanwhile).
   */
  giveBack(attempts: readonly DeliveryToSend[]): Promise<void> {
    return this.unclaim(attempts.map(({ delivery, leasedUntil }) => ({ id: delivery.id, claimedUntil: leasedUntil })));
  }

  private unclaim(leases: readonly DeliveryLease[]): Promise<void> {
    return this.uow.run((tx) => tx.webhookDeliveries.unclaim(leases, this.clock.now()));
  }

  /**
   * Sends one claimed attempt and records what came of it; `answered` is called between the two, so a worker may
   * use the connection to that endpoint again while the result waits for its transaction. The lease lapses after
   * a fixed time whether or not the result is recorded: a worker keeps counting unrecorded results among the
   * attempts it has leased. Never throws for what the endpoint does.
   */
  async send(item: DeliveryToSend, answered?: () => void): Promise<DeliveryResult> {
    const sentAt = this.clock.now();
    const result = await sendSigned(this.ports.sender, item.request);
    answered?.();
    await this.results.add({ delivery: item.delivery, result, sentAt });
    return result;
  }

  /**
   * Records a batch's results set-based: one UPDATE ends every attempt of the batch, one more per webhook records
   * its outcomes, instead of two statements per attempt (each a round trip, and each UPDATE of the attempts firing
   * the list counts' trigger).
   */
  private async record(tx: Scope, results: readonly Answered[]): Promise<void> {
    // An attempt answered twice in one batch (its caller sent it twice) is recorded once, its first answer.
    const first = new Map<number, Answered>();
    for (const answered of results) if (!first.has(answered.delivery.id)) first.set(answered.delivery.id, answered);
    const byWebhook = new Map<number, Answered[]>();
    for (const answered of first.values()) {
      const { webhookId } = answered.delivery;
      const answers = byWebhook.get(webhookId);
      if (answers) answers.push(answered);
      else byWebhook.set(webhookId, [answered]);
    }
    // Not ended here: its lease lapsed and another worker ended it as lost (and sent it again as the next attempt).
    const ended = new Set((await endAttempts(tx, [...first.values()])).map((d) => d.id));
    const now = this.clock.now();
    const retries: ScheduledDelivery[] = [];
    // Different webhooks side by side, so their statements travel together.
    await Promise.all(
      [...byWebhook].map(async ([webhookId, answers]) => {
        // In the order its endpoint answered them: a success ends the run of failures before it, so recorded out of
        // order a webhook could go FAILED that did not fail that often in a row.
        const recorded = answers.filter(({ delivery }) => ended.has(delivery.id));
        if (recorded.length === 0) return;
        const failures = await tx.webhooks.recordDelivery(
          webhookId,
          now,
          recorded.map(({ result }) => result.status),
        );
        for (const { delivery, result } of recorded) {
          const retry = result.status === 'FAILED' ? await this.retryOf(tx, delivery, now, retries) : undefined;
          if (retry) retries.push(retry);
        }
        await failPastThreshold(tx.webhooks, webhookId, failures, this.ports.failureThreshold, now);
      }),
    );
    // One call for the batch: storage may lock a row per webhook for the attempts it schedules (PostgreSQL's
    // next-due bounds), and one call takes them in one order, as a dispatch does; one call per webhook, in the order
    // the endpoints answered, deadlocked with a dispatch to the same webhooks.
    if (retries.length > 0) await tx.webhookDeliveries.schedule(retries);
  }

  /** The next attempt of a failed one, on the CONTRACT schedule, unless it was the last. */
  private async retryOf(tx: Scope, delivery: ClaimedDelivery, now: Date, batch: readonly ScheduledDelivery[]): Promise<ScheduledDelivery | undefined> {
    const retryAt = nextAttemptAt(delivery.scheduleStep, now, this.ports.retryScale);
    if (!retryAt) return undefined;
    // Numbered after every attempt of the event, a manual redelivery's too, under the webhook's row lock
    // (lockForRecording took it), as a redelivery numbers its own: neither takes the other's number, nor is lost.
    // And after the retries of this batch not yet stored (two failed attempts of one event answered together).
    const stored = await tx.webhookDeliveries.lastAttempt(delivery.webhookId, delivery.eventId);
    const ofBatch = batch.filter((d) => d.webhookId === delivery.webhookId && d.eventId === delivery.eventId).map((d) => d.attempt);
    const attempt = Math.max(stored, ...ofBatch) + 1;
    const { id: _id, lapsed: _lapsed, ...retried } = delivery;
    // Its createdAt is when it is due: the history dates each attempt by when it was (to be) made, and an attempt held
    // while its webhook is paused is kept WEBHOOK_RETENTION_HOURS from it.
    return { ...retried, attempt, scheduleStep: delivery.scheduleStep! + 1, createdAt: retryAt, nextAttemptAt: retryAt };
  }
}

/**
 * Ends attempts held longer than WEBHOOK_RETENTION_HOURS (their webhook stayed PAUSED or FAILED) as FAILED,
 * recorded as expired, in batches of short transactions; how many. Once no attempt of an event is left to make,
 * the event purge may take it.
 */
export class ExpireHeldDeliveries {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'webhookDeliveries'>>,
    private readonly clock: Clock,
    private readonly retentionMs: number,
  ) {}

  execute(input: { batchSize?: number } = {}): Promise<number> {
    const batchSize = input.batchSize ?? 1_000;
    return drain(batchSize, () => {
      const now = this.clock.now();
      return this.uow.run((tx) => tx.webhookDeliveries.expireHeld(new Date(now.getTime() - this.retentionMs), batchSize));
    });
  }
}
