import {
  RunSettlementCycle,
  SettlementRunConflictError,
  SettlementRunIncompleteError,
  TransactionConflictError,
  type DueAccountsPick,
  type TransactionScope,
  type UnitOfWork,
} from '../src';
import { FixedClock } from '../testing/fakes';

/** A unit of work whose database goes away once the first chunk's accounts are locked. */
function databaseLostMidChunk(due: readonly number[]) {
  const settled: number[][] = [];
  let picks = 0;
  const scope = {
    settlements: {
      lockDue: (pick: DueAccountsPick) =>
        ++picks > 1
          ? Promise.reject(new Error('connection terminated'))
          : Promise.resolve(due.filter((id) => pick.accountIds === undefined || pick.accountIds.includes(id)).slice(0, pick.limit)),
      settle: (_now: Date, accountIds: readonly number[]) => {
        settled.push([...accountIds]);
        return Promise.reject(new Error('connection terminated'));
      },
    },
  } as unknown as TransactionScope;
  const uow = { run: (work: (tx: TransactionScope) => Promise<unknown>) => work(scope), inTransaction: () => false } as unknown as UnitOfWork<TransactionScope>;
  return { uow, settled };
}

/**
 * A unit of work whose settle fails for the accounts of `failing` (each with its own error), and settles the others
 * opening no settlement (they held no money), so a run goes through its chunk and then account by account.
 */
function accountsFailing(due: readonly number[], failing: ReadonlyMap<number, () => Error>) {
  const scope = {
    settlements: {
      lockDue: (pick: DueAccountsPick) =>
        Promise.resolve(due.filter((id) => (pick.accountIds === undefined ? pick.limit > 1 : pick.accountIds.includes(id))).slice(0, pick.limit)),
      settle: (_now: Date, accountIds: readonly number[]) => {
        const failed = accountIds.find((id) => failing.has(id));
        return failed === undefined ? Promise.resolve([]) : Promise.reject(failing.get(failed)!());
      },
      settledReceivables: async function* () {},
      credit: () => Promise.resolve(),
    },
    outbox: { record: () => Promise.resolve() },
  } as unknown as TransactionScope;
  return { run: (work: (tx: TransactionScope) => Promise<unknown>) => work(scope), inTransaction: () => false } as unknown as UnitOfWork<TransactionScope>;
}

describe('settlement cycle when accounts fail', () => {
  const clock = new FixedClock(new Date('2026-04-01T10:00:00Z'));

  it('answers concurrent-modification, naming them, when the only accounts it could not settle met concurrent changes', async () => {
    const uow = accountsFailing([11, 12, 13], new Map([[12, () => new TransactionConflictError()]]));
    const failure: unknown = await new RunSettlementCycle(uow, clock).execute({ chunkSize: 10, workers: 1 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SettlementRunConflictError);
    expect(failure).toMatchObject({ code: 'concurrent-modification', accountIds: [12] });
    expect((failure as Error).message).toMatch(/^other operations changed receivable accounts 12 at the same time/);
  });

  it('stays an incomplete run, not a conflict, when any account failed otherwise', async () => {
    const failing = new Map<number, () => Error>([
      [12, () => new TransactionConflictError()],
      [13, () => new Error('no MAIN current account')],
    ]);
    const failure: unknown = await new RunSettlementCycle(accountsFailing([11, 12, 13], failing), clock)
      .execute({ chunkSize: 10, workers: 1 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SettlementRunIncompleteError);
  });

  it('gives the run up with the error itself once three accounts in a row fail alone and the database does not answer either', async () => {
    const { uow, settled } = databaseLostMidChunk([11, 12, 13, 14, 15, 16]);
    await expect(new RunSettlementCycle(uow, clock).execute({ chunkSize: 10, workers: 1 })).rejects.toThrow(/^connection terminated$/);
    expect(settled).toEqual([[11, 12, 13, 14, 15, 16]]);
  });
});
