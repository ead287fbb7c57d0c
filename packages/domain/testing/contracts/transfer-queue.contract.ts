import { transferMovement, type Movement, type QueuePosition, type Transfer } from '../../src';
import { A_CBU, aTransferDraft } from '../builders';
import { useHarness, type HarnessFactory, type TestDefinition } from './harness';
import { aSource } from './transfer-repository.contract';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1_000);
const lease = (by: string, seconds: number) => ({ by, until: at(seconds) });

/** What the transfer worker asks of storage: its queue, its leases, its set-based writes and the balances it debits. */
export function transferQueueContract(factory: HarnessFactory, itRacing: TestDefinition): void {
  describe('transfer worker storage', () => {
    const ctx = useHarness(factory);
    const setUp = async () => {
      const customerId = await ctx.newCustomer();
      return ctx.h.uow.run((tx) => aSource(tx, customerId));
    };
    const insert = (on: Awaited<ReturnType<typeof setUp>>, overrides: Parameters<typeof aTransferDraft>[1] = {}) =>
      ctx.h.uow.run((tx) => tx.transfers.insert(aTransferDraft(on, overrides)));

    it('queues due transfers whose destination is known, earliest day then lowest id, one customer’s when asked', async () => {
      const on = await setUp();
      const later = await insert(on, { status: 'SCHEDULED', scheduledDate: '2026-03-03' });
      const dated = await insert(on, { status: 'SCHEDULED', scheduledDate: '2026-03-02' });
      const now = await insert(on);
      const alias = await insert(on, { destination: { cbuCvu: null, alias: 'pago.norte', accountId: null, counterParty: null } });
      await insert(on, { status: 'PENDING_APPROVAL' });
      await insert(await setUp());
      const due = (today: string, limit = 10) => ctx.h.uow.run((tx) => tx.transfers.lockDue({ today, limit, customerId: on.customerId }));
      expect((await due('2026-03-01')).map((t) => t.id)).toEqual([now.id]);
      expect((await due('2026-03-03')).map((t) => t.id)).toEqual([now.id, dated.id, later.id]);
      expect((await due('2026-03-03', 2)).map((t) => t.id)).toEqual([now.id, dated.id]);
      const unresolved = await ctx.h.uow.run((tx) => tx.transfers.dueUnresolved({ today: '2026-03-01', limit: 10, customerId: on.customerId }));
      expect(unresolved.map((t) => t.id)).toEqual([alias.id]);
    });

    it('walks the transfers awaiting their alias after a position in the queue: earliest day, then lowest id', async () => {
      const on = await setUp();
      const byAlias = { destination: { cbuCvu: null, alias: 'pago.norte', accountId: null, counterParty: null } };
      const dated = await insert(on, { ...byAlias, status: 'SCHEDULED', scheduledDate: '2026-03-01' });
      const [first, second] = [await insert(on, byAlias), await insert(on, byAlias)];
      const walk = (after?: QueuePosition) =>
        ctx.h.uow.run((tx) => tx.transfers.dueUnresolved({ today: '2026-03-01', limit: 2, customerId: on.customerId, after }));
      const position = (t: Transfer) => ({ scheduledDate: t.toSnapshot().scheduledDate, id: t.id });
      const chunk = await walk();
      expect(chunk.map((t) => t.id)).toEqual([first.id, second.id]);
      expect((await walk(position(chunk[1]))).map((t) => t.id)).toEqual([dated.id]);
      expect((await walk(position(chunk[0]))).map((t) => t.id)).toEqual([second.id, dated.id]);
      expect(await walk(position(dated))).toEqual([]);
    });

    it('saves many transfers at once, and refuses the whole save when one changed since it was read', async () => {
      const on = await setUp();
      const [a, b] = [await insert(on), await insert(on, { destination: { cbuCvu: null, alias: 'pago.sur', accountId: null, counterParty: null } })];
      await ctx.h.uow.run((tx) => tx.transfers.updateAll([a.start('2026-03-01', at(1), lease('w1', 60)), b.resolveAlias(A_CBU)]));
      expect((await ctx.h.transferQueries.get(a.id))?.toSnapshot()).toMatchObject({
        status: 'IN_PROGRESS',
        processing: { attempts: 1, claimedBy: 'w1', claimedUntil: at(60) },
        version: 2,
      });
      expect((await ctx.h.transferQueries.get(b.id))?.toSnapshot()).toMatchObject({ status: 'PENDING', destination: { cbuCvu: A_CBU }, version: 2 });
      await expect(ctx.h.uow.run((tx) => tx.transfers.updateAll([b.fail('insufficient-balance', at(2))]))).rejects.toMatchObject({
        code: 'concurrent-modification',
      });
      expect((await ctx.h.transferQueries.get(b.id))?.status).toBe('PENDING');
    });

    it('hands back IN_PROGRESS transfers whose lease ended, and those still IN_PROGRESS of a list', async () => {
      const on = await setUp();
      const [ended, held, done] = [await insert(on), await insert(on), await insert(on)];
      await ctx.h.uow.run((tx) =>
        tx.transfers.updateAll([
          ended.start('2026-03-01', at(0), lease('w1', 10)),
          held.start('2026-03-01', at(0), lease('w1', 100)),
          done.completeAtOnce('2026-03-01', at(0)),
        ]),
      );
      const endedBy = (seconds: number) => ctx.h.uow.run((tx) => tx.transfers.lockLeaseEnded(at(seconds), 10, on.customerId));
      expect((await endedBy(5)).map((t) => t.id)).toEqual([]);
      expect((await endedBy(50)).map((t) => t.id)).toEqual([ended.id]);
      const inProgress = await ctx.h.uow.run((tx) => tx.transfers.lockInProgress([done.id, held.id, ended.id]));
      expect(inProgress.map((t) => t.id)).toEqual([ended.id, held.id]);
    });

    it('debits and credits current accounts in one write, answering the movements recorded, refusing a balance below zero, and reads balances under lock', async () => {
      const on = await setUp();
      const transfer = await insert(on, { amountMinor: 700n });
      const move = (subtype: 'TRANSFER_OUT' | 'TRANSFER_IN', accountId: number, amountMinor: bigint) => ({
        ...transferMovement(transfer, subtype, accountId, at(1)),
        amountMinor,
      });
      const moved: Movement[] = [];
      moved.push(...(await ctx.h.uow.run((tx) => tx.ledger.appendAll([move('TRANSFER_IN', on.sourceAccountId, 1_000n)]))));
      moved.push(...(await ctx.h.uow.run((tx) => tx.ledger.appendAll([move('TRANSFER_OUT', on.sourceAccountId, 700n)]))));
      const listed = await ctx.h.ledgerQueries.listMovements(
        { customerId: on.customerId, accountId: on.sourceAccountId, accountKind: 'CURRENT', order: 'asc' },
        { page: 1, count: 10 },
      );
      expect(moved).toEqual(listed.items);
      expect(moved.map((m) => [m.subtype, m.transferId])).toEqual([
        ['TRANSFER_IN', transfer.id],
        ['TRANSFER_OUT', transfer.id],
      ]);
      const balances = await ctx.h.uow.run((tx) => tx.currentAccounts.lockBalances([on.otherAccountId, on.sourceAccountId, on.sourceAccountId]));
      expect(balances.map((b) => [b.account.id, b.balanceMinor])).toEqual(
        [
          [on.sourceAccountId, 300n],
          [on.otherAccountId, 0n],
        ].sort((x, y) => Number(x[0]) - Number(y[0])),
      );
      const overdraft = ctx.h.uow.run((tx) => tx.ledger.appendAll([{ ...move('TRANSFER_OUT', on.otherAccountId, 1n), transferId: null }]));
      await expect(overdraft).rejects.toThrow();
      await expect(ctx.h.uow.run((tx) => tx.ledger.appendAll([move('TRANSFER_OUT', on.sourceAccountId, 1n)]))).rejects.toThrow();
      expect(await ctx.h.ledgerQueries.mismatches()).toEqual([]);
    });

    itRacing('gives each due transfer to one of two workers claiming at once', async () => {
      const on = await setUp();
      const ids = [];
      for (let i = 0; i < 6; i++) ids.push((await insert(on)).id);
      const claim = () =>
        ctx.h.uow.run(async (tx) => {
          const due = await tx.transfers.lockDue({ today: '2026-03-01', limit: 4, customerId: on.customerId });
          await new Promise((resolve) => setTimeout(resolve, 50));
          await tx.transfers.updateAll(due.map((t) => t.start('2026-03-01', at(1), lease('w', 60))));
          return due.map((t) => t.id);
        });
      const [one, two] = await Promise.all([claim(), claim()]);
      expect([...one, ...two].sort((a, b) => a - b)).toEqual(ids);
    });
  });
}
