import type { Clock } from '../../shared/clock';
import { DomainError, isConcurrentModification } from '../../shared/domain-error';
import type { DomainEvent } from '../../shared/events';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { receivableView } from '../../receivables/receivable';
import { settlementView, type Settlement } from '../settlement';
import type { DueAccountsPick } from '../settlement-repository';

/** Receivables held in memory at once while a chunk is settled, whatever the size of its accounts. */
const RECEIVABLES_PER_BATCH = 5_000;

export interface SettlementRunResult {
  readonly settlements: number;
  readonly settledReceivables: number;
  readonly settledAmountMinor: bigint;
}

const add = (a: SettlementRunResult, b: SettlementRunResult): SettlementRunResult => ({
  settlements: a.settlements + b.settlements,
  settledReceivables: a.settledReceivables + b.settledReceivables,
  settledAmountMinor: a.settledAmountMinor + b.settledAmountMinor,
});

const NOTHING: SettlementRunResult = { settlements: 0, settledReceivables: 0, settledAmountMinor: 0n };

/**
 * Accounts failing one after another while a failed chunk is settled account by account: one broken customer's
 * accounts (opened together, their ids follow each other), or no database at all. A statement that touches no
 * account then tells which.
 */
const FAILURES_IN_A_ROW_TO_PROBE = 3;

/** Failures a run's error names with their reasons; a log line stays readable when a bug fails thousands. */
const NAMED_FAILURES = 10;

/** The first NAMED_FAILURES of `names`, and how many more there are. */
const namedFailures = (names: readonly string[]) =>
  names.slice(0, NAMED_FAILURES).join(', ') + (names.length > NAMED_FAILURES ? ` and ${names.length - NAMED_FAILURES} more` : '');

/**
 * A run that settled every account it could and failed some: their money, receivables and locks stay as they were
 * for the next run. Thrown once the rest is done, so one account that cannot be settled (broken data, a bug) never
 * holds back the other accounts of its chunk, other customers' among them, run after run.
 */
export class SettlementRunIncompleteError extends Error {
  constructor(
    readonly settled: SettlementRunResult,
    readonly failures: ReadonlyMap<number, unknown>,
  ) {
    const named = namedFailures([...failures].map(([id, error]) => `${id} (${error instanceof Error ? error.message : String(error)})`));
    super(`settling receivable accounts ${named} failed; the run settled the other accounts it took`, {
      cause: failures.values().next().value,
    });
    this.name = 'SettlementRunIncompleteError';
  }
}

/**
 * A run whose only failures were conflicts with concurrent changes (a deadlock's victim, a row lock waited for past
 * the lock timeout): the other accounts were settled, these wait as they were, and the same request sent again
 * settles them. 409 concurrent-modification, as any request meeting such a conflict is answered (not a 500: nothing
 * is broken), and it keeps nothing under an Idempotency-Key.
 */
export class SettlementRunConflictError extends DomainError {
  constructor(
    readonly settled: SettlementRunResult,
    readonly accountIds: readonly number[],
  ) {
    super(
      'concurrent-modification',
      `other operations changed receivable accounts ${namedFailures(accountIds.map(String))} at the same time: they were left as they were, and the run settled the other ` +
        `accounts it took (${settled.settlements} settlements); send the request again to settle them`,
    );
    this.name = 'SettlementRunConflictError';
  }
}

/**
 * The settlement cycle: chunk after chunk, each in one transaction with its events (receivable.settled per
 * receivable, settlement.completed per settlement, and movement.created per movement, which the settlement
 * repository writes with the movements). Chunks skip accounts another transaction holds, so `workers` loops run
 * side by side in one run (one settles while another waits on the database), as two runs in two instances do; a
 * run that dies loses only its open chunks, which the next run does again. A chunk that fails is settled again
 * account by account, and the accounts that fail alone are left out of the rest of the run; when several in a row
 * fail and the database does not answer either, the loop ends with that error. Called inside an open
 * transaction, it runs one loop, whose chunks all join that transaction (and a failure fails it). Accounts holding
 * no unsettled money are not settled: their PAID receivables wait for the money. The scheduled cycle settles every
 * customer; with `customerId` (the sandbox helper) the same statements settle that customer's accounts alone.
 */
export class RunSettlementCycle {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'settlements' | 'outbox'>>,
    private readonly clock: Clock,
  ) {}

  async execute(input: { customerId?: number; chunkSize?: number; workers?: number } = {}): Promise<SettlementRunResult> {
    // Three loops keep both cores of a 2-core machine busy: while one waits on PostgreSQL, another builds events
    // (1,000,000 receivables: 72 s with one loop, 57 s with two, 53 s with three).
    const { customerId, chunkSize = 500, workers = 3 } = input;
    // Inside an open transaction every loop would join it, and SKIP LOCKED does not skip the transaction's own
    // locks: each loop would settle the same accounts again. One loop settles each once.
    const loopCount = this.uow.inTransaction() ? 1 : workers;
    const failures = new Map<number, unknown>();
    const loops = await Promise.allSettled(Array.from({ length: loopCount }, () => this.settleUntilDone(chunkSize, customerId, failures)));
    const failed = loops.find((loop): loop is PromiseRejectedResult => loop.status === 'rejected');
    if (failed) throw failed.reason;
    const settled = loops.reduce((total, loop) => add(total, (loop as PromiseFulfilledResult<SettlementRunResult>).value), NOTHING);
    if (failures.size > 0 && [...failures.values()].every(isConcurrentModification)) throw new SettlementRunConflictError(settled, [...failures.keys()]);
    if (failures.size > 0) throw new SettlementRunIncompleteError(settled, failures);
    return settled;
  }

  private async settleUntilDone(chunkSize: number, customerId: number | undefined, failures: Map<number, unknown>): Promise<SettlementRunResult> {
    let total = NOTHING;
    for (;;) {
      const locked: number[] = [];
      let chunk: SettlementRunResult;
      try {
        chunk = await this.settleChunk({ limit: chunkSize, customerId, excluding: [...failures.keys()] }, locked);
      } catch (error) {
        if (locked.length === 0 || this.uow.inTransaction()) throw error;
        chunk = await this.settleOneByOne(locked, failures);
      }
      total = add(total, chunk);
      if (locked.length < chunkSize) return total;
    }
  }

  private async settleOneByOne(accountIds: readonly number[], failures: Map<number, unknown>): Promise<SettlementRunResult> {
    let total = NOTHING;
    let failedInARow = 0;
    for (const id of accountIds) {
      try {
        total = add(total, await this.settleChunk({ limit: 1, accountIds: [id] }, []));
        failedInARow = 0;
      } catch (error) {
        failures.set(id, error);
        if (++failedInARow < FAILURES_IN_A_ROW_TO_PROBE) continue;
        if (!(await this.databaseAnswers())) throw error;
        failedInARow = 0;
      }
    }
    return total;
  }

  /** Whether a statement that touches no account goes through: accounts failing in a row, or no database. */
  private databaseAnswers(): Promise<boolean> {
    return this.uow
      .run((tx) => tx.settlements.lockDue({ limit: 0 }))
      .then(
        () => true,
        () => false,
      );
  }

  /** One chunk in one transaction; the accounts it locked are put in `locked` before anything can fail on them. */
  private settleChunk(pick: DueAccountsPick, locked: number[]): Promise<SettlementRunResult> {
    return this.uow.run(async (tx): Promise<SettlementRunResult> => {
      const now = this.clock.now();
      locked.push(...(await tx.settlements.lockDue(pick)));
      const opened = await tx.settlements.settle(now, locked);
      const settlementOf = new Map(opened.map((s) => [s.receivableAccountId, s.id]));
      const receivableIds = new Map<number, number[]>(opened.map((s) => [s.id, []]));
      for await (const batch of tx.settlements.settledReceivables(opened, RECEIVABLES_PER_BATCH)) {
        await tx.outbox.record(
          batch.map((r): DomainEvent => ({ customerId: r.customerId, type: 'receivable.settled', occurredAt: now, data: { receivable: receivableView(r) } })),
        );
        for (const r of batch) receivableIds.get(settlementOf.get(r.receivableAccountId)!)!.push(r.id);
      }
      const settlements = opened.map((s): Settlement => ({ ...s, receivableIds: receivableIds.get(s.id)! }));
      await tx.outbox.record(
        settlements.map((s): DomainEvent => ({
          customerId: s.customerId,
          type: 'settlement.completed',
          occurredAt: now,
          data: { settlement: settlementView(s) },
        })),
      );
      await tx.settlements.credit(opened, now);
      return {
        settlements: settlements.length,
        settledReceivables: settlements.reduce((sum, s) => sum + s.receivableIds.length, 0),
        settledAmountMinor: settlements.reduce((sum, s) => sum + s.amountMinor, 0n),
      };
    });
  }
}
