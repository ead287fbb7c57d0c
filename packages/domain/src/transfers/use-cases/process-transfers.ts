import type { Clock } from '../../shared/clock';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import type { BankProvider } from '../../bank/bank-provider';
import type { AliasDirectory } from '../../bank/alias-directory';
import { ProviderError } from '../../bank/bank-provider';
import { ValidationError, type DomainError } from '../../shared/domain-error';
import { calendarDay } from '../../receivables/calendar-day';
import { movementCreated } from '../../ledger/movement';
import type { Transfer, TransferLease } from '../transfer';
import type { QueuePosition } from '../transfer-repository';
import { planDebits } from '../transfer-movements';
import { refusalOutside } from '../transfer-destination';
import { payOut, settleOutcome, type PayoutOutcome } from '../payout-outcome';
import { inParallel, type PayoutPolicy } from '../payout-policy';
import { retryingLostRaces } from '../../shared/lost-races';

type ProcessScope = Pick<TransactionScope, 'transfers' | 'currentAccounts' | 'receivableAccounts' | 'ledger' | 'outbox'>;

export interface TransferRunInput {
  /** One customer's transfers (the sandbox helper); every customer's without it. */
  readonly customerId?: number;
  /** The Buenos Aires day to run as (SCHEDULED transfers dated up to it are due); today by default. */
  readonly day?: string;
  /** Who holds the leases this run takes (host and process), for operators reading the table. */
  readonly worker?: string;
}

/** What a run did to the transfers it touched: how many ended COMPLETED, FAILED, or are still IN_PROGRESS (paid out, outcome to come). */
export interface TransferRunResult {
  readonly completed: number;
  readonly failed: number;
  readonly inProgress: number;
}

type Tally = { completed: number; failed: number; inProgress: number };

/**
 * The transfer worker's pass (TRANSFER_CRON, or the sandbox helper). First, transfers whose lease ended are
 * reconciled with the provider's record of their payout. Then due transfers are taken chunk by chunk: in one
 * transaction each chunk is locked (SKIP LOCKED: another worker takes other rows), its accounts' balances locked
 * and debited (a TRANSFER_OUT movement each; a transfer the balance cannot cover FAILS with insufficient-balance),
 * INTERNAL_TRANSFERs credited and COMPLETED, OUTGOING ones IN_PROGRESS under a lease. After the commit their payouts
 * go to the provider under the transfer's id, outside any transaction, and a new transaction records each result
 * (COMPLETED, or FAILED with the debit returned by a TRANSFER_REVERSAL). A worker killed anywhere leaves either
 * nothing done or IN_PROGRESS transfers whose lease ends, which the next pass reconciles: no payout is sent twice
 * without the provider's own idempotency catching it, and none is lost.
 */
export class ProcessTransfers {
  constructor(
    private readonly uow: UnitOfWork<ProcessScope>,
    private readonly clock: Clock,
    private readonly bank: BankProvider,
    private readonly policy: PayoutPolicy,
    private readonly aliases: AliasDirectory,
  ) {}

  async execute(input: TransferRunInput = {}): Promise<TransferRunResult> {
    const tally: Tally = { completed: 0, failed: 0, inProgress: 0 };
    const worker = input.worker ?? 'transfer-worker';
    await this.reconcile(input.customerId, worker, tally);
    const today = input.day ?? calendarDay(this.clock.now());
    await this.resolveAliases(today, input.customerId, tally);
    // Inside an open transaction SKIP LOCKED does not skip its own locks: one loop, or loops would take the same rows.
    const loops = this.uow.inTransaction() ? 1 : this.policy.loops;
    const results = await Promise.allSettled(Array.from({ length: loops }, () => this.payDue(today, input.customerId, worker, tally)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    return { ...tally };
  }

  /**
   * One of the run's transactions, sent again when PostgreSQL undoes it as a deadlock's victim: the settlement cycle
   * takes a customer's list counts before its current accounts, which a run takes first, and a chunk lost to it
   * would otherwise wait for the next run (the sandbox run answered 409). Nothing outside the transaction happened
   * in it (payouts go out between transactions), so it can simply run again.
   */
  private write<T>(work: (tx: ProcessScope) => Promise<T>): Promise<T> {
    return retryingLostRaces(this.uow, () => this.uow.run(work));
  }

  private lease(worker: string): TransferLease {
    return { by: worker, until: new Date(this.clock.now().getTime() + this.policy.leaseMs) };
  }

  private async payDue(today: string, customerId: number | undefined, worker: string, tally: Tally): Promise<void> {
    for (;;) {
      const lease = this.lease(worker);
      const { claimed, toPay, decided } = await this.write(async (tx) => {
        const due = await tx.transfers.lockDue({ today, limit: this.policy.chunkSize, customerId });
        const accountIds = due.flatMap((t) => [t.toSnapshot().sourceAccountId, t.toSnapshot().destination.accountId ?? []].flat());
        const refused = await refusedDestinations(tx, due);
        const plan = planDebits(due, await tx.currentAccounts.lockBalances(accountIds), refused, today, this.clock.now(), lease);
        const moved = await tx.ledger.appendAll(plan.movements);
        await tx.transfers.updateAll(plan.transfers);
        await tx.outbox.record([...moved.map(movementCreated), ...plan.events]);
        return { claimed: due.length, toPay: plan.toPay, decided: plan.transfers };
      });
      count(
        tally,
        decided.filter((t) => t.status !== 'IN_PROGRESS'),
      );
      await this.payAndRecord(toPay, undefined, lease, tally);
      if (claimed < this.policy.chunkSize) return;
    }
  }

  /**
   * IN_PROGRESS transfers whose lease ended: a new lease, then the provider's record decides. A payout it never
   * took is sent, unless its destination now refuses it (read as at the debit): that one is not sent, and FAILS
   * with its debit returned once the provider still has no record of it on the last pass (as a given-up one).
   */
  private async reconcile(customerId: number | undefined, worker: string, tally: Tally): Promise<void> {
    // Leases that ended before this pass began, only: one it gives back (no answer) ends now, and taken again in the
    // same pass it would be asked about and sent again at once, spending every attempt of a short outage in seconds,
    // or looping for as long as the provider stays down.
    const endedBefore = this.clock.now();
    // And none twice in a pass, should the clock step back under it (a lease given back would then end before).
    const taken = new Set<number>();
    for (;;) {
      const lease = this.lease(worker);
      const { renewed, refused, more } = await this.write(async (tx) => {
        const ended = await tx.transfers.lockLeaseEnded(endedBefore, this.policy.chunkSize, customerId);
        const renewed = ended.filter((t) => !taken.has(t.id)).map((t) => t.renewLease(lease));
        await tx.transfers.updateAll(renewed);
        const more = ended.length === this.policy.chunkSize && renewed.length === ended.length;
        return { renewed, refused: await refusedDestinations(tx, renewed), more };
      });
      for (const t of renewed) taken.add(t.id);
      await this.payAndRecord(renewed, refused, lease, tally);
      if (!more) return;
    }
  }

  /** `refused` is given when reconciling: the reasons the destinations it names refuse their transfers now. */
  private async payAndRecord(
    transfers: readonly Transfer[],
    refused: ReadonlyMap<number, string> | undefined,
    lease: TransferLease,
    tally: Tally,
  ): Promise<void> {
    if (transfers.length === 0) return;
    // Sends start in the first half of the lease only: one call outlasts no half lease (TRANSFER_LEASE_MS), so every
    // send has ended, answered or not, before the lease does and another worker may ask the provider about it.
    const sendsUntil = lease.until.getTime() - this.policy.leaseMs / 2;
    const mayStartSend = () => this.clock.now().getTime() < sendsUntil;
    const outcomes = await inParallel(transfers, this.policy.concurrency, (t) =>
      payOut(this.bank, t, this.policy, mayStartSend, refused && { refusal: refused.get(t.id) }),
    );
    const outcomeOf = new Map<number, PayoutOutcome>(transfers.map((t, i) => [t.id, outcomes[i]]));
    const changed = await this.write(async (tx) => {
      const now = this.clock.now();
      // Locked as they are now: one another worker already settled is no longer IN_PROGRESS and is left alone.
      const current = await tx.transfers.lockInProgress(transfers.map((t) => t.id));
      const settled = current.map((t) => settleOutcome(t, outcomeOf.get(t.id)!, lease, now));
      const reversals = settled.flatMap((s) => s.reversal ?? []);
      await tx.currentAccounts.lockBalances(reversals.map((m) => m.accountId));
      const moved = await tx.ledger.appendAll(reversals);
      const changed = settled.map((s) => s.transfer).filter((t, i) => t !== current[i]);
      await tx.transfers.updateAll(changed);
      await tx.outbox.record([...moved.map(movementCreated), ...changed.flatMap((t) => t.events)]);
      return changed;
    });
    count(tally, changed);
  }

  /**
   * Due OUTGOING transfers that name only an alias: the provider says which account it is before any money moves.
   * An alias no account has FAILS the transfer (destination-not-found); a provider that does not answer leaves it
   * PENDING for the next pass, for `maxAttempts` passes, then FAILS it (provider-unavailable).
   */
  private async resolveAliases(today: string, customerId: number | undefined, tally: Tally): Promise<void> {
    // Chunk after chunk, each transfer once a run (one the provider did not answer waits for the next run), until
    // the queue ends, a whole chunk goes unanswered (the provider is down: the next run tries again) or the run's
    // time for aliases is spent.
    const until = this.clock.now().getTime() + this.policy.aliasWalkMs;
    for (let after: QueuePosition | undefined; ;) {
      const unresolved = await this.uow.run((tx) => tx.transfers.dueUnresolved({ today, limit: this.policy.chunkSize, customerId, after }));
      const answered = await this.resolveChunk(unresolved, tally);
      if (unresolved.length < this.policy.chunkSize || answered === 0 || this.clock.now().getTime() >= until) return;
      const { scheduledDate, id } = unresolved[unresolved.length - 1].toSnapshot();
      after = { scheduledDate, id };
    }
  }

  /** How many of the chunk's aliases the provider answered for. */
  private async resolveChunk(unresolved: readonly Transfer[], tally: Tally): Promise<number> {
    const answers = await inParallel(unresolved, this.policy.concurrency, async (t) => {
      try {
        return { found: await this.aliases.resolve(t.toSnapshot().destination.alias!) };
      } catch (error) {
        if (error instanceof ProviderError) return undefined;
        throw error;
      }
    });
    const failed = await this.write(async (tx) => {
      const now = this.clock.now();
      const failures: Transfer[] = [];
      for (const [i, t] of unresolved.entries()) {
        const answer = answers[i];
        const current = await tx.transfers.getForUpdate(t.id);
        // Cancelled, or resolved by another worker, meanwhile.
        if (!current || current.toSnapshot().destination.cbuCvu !== null || (current.status !== 'PENDING' && current.status !== 'SCHEDULED')) continue;
        const next = !answer
          ? current.aliasUnanswered(this.policy.maxAttempts, now)
          : answer.found
            ? current.resolveAlias(answer.found.cbuCvu)
            : current.fail('destination-not-found', now);
        await tx.transfers.update(next);
        await tx.outbox.record(next.events);
        if (next.status === 'FAILED') failures.push(next);
      }
      return failures;
    });
    count(tally, failed);
    return answers.filter((answer) => answer !== undefined).length;
  }
}

/**
 * OUTGOING transfers whose CBU/CVU names an account of this service that takes no payment from them, with the
 * reason each FAILS (`destination-not-payable: ...`), read as the accounts are at the debit (or at a payout's
 * resend): creation applied the same rule, but an account disabled since, an alias resolved by the worker, or a
 * transfer stored before the rule would otherwise be paid out and credited nowhere.
 */
async function refusedDestinations(tx: ProcessScope, transfers: readonly Transfer[]): Promise<Map<number, string>> {
  const outgoing = transfers.map((t) => t.toSnapshot()).filter((t) => t.type === 'OUTGOING_TRANSFER' && t.destination.cbuCvu !== null);
  const hosted = new Map((await tx.receivableAccounts.hostedByCvu([...new Set(outgoing.map((t) => t.destination.cbuCvu!))])).map((a) => [a.cvu, a]));
  const refused = new Map<number, string>();
  for (const t of outgoing) {
    const refusal = refusalOutside(hosted.get(t.destination.cbuCvu!), t.customerId);
    if (refusal) refused.set(t.id, `destination-not-payable: ${sentence(refusal)}`);
  }
  return refused;
}

/** A refusal as one sentence (`destination names ...`), whether creation would answer it as a validation or by its own code. */
const sentence = (refusal: DomainError) =>
  refusal instanceof ValidationError ? refusal.invalidParams.map((p) => `${p.name} ${p.reason}`).join('; ') : refusal.message;

function count(tally: Tally, transfers: readonly Transfer[]): void {
  for (const t of transfers) {
    if (t.status === 'COMPLETED') tally.completed++;
    else if (t.status === 'FAILED') tally.failed++;
    else if (t.status === 'IN_PROGRESS') tally.inProgress++;
  }
}
