import { RunSettlementCycle, type DueAccountsPick, type TransactionScope, type UnitOfWork } from '../src';
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

describe('settlement cycle when accounts fail', () => {
  it('gives the run up with the error itself once three accounts in a row fail alone and the database does not answer either', async () => {
    const { uow, settled } = databaseLostMidChunk([11, 12, 13, 14, 15, 16]);
    await expect(new RunSettlementCycle(uow, new FixedClock(new Date('2026-04-01T10:00:00Z'))).execute({ chunkSize: 10, workers: 1 })).rejects.toThrow(
      /^connection terminated$/,
    );
    expect(settled).toEqual([[11, 12, 13, 14, 15, 16]]);
  });
});
