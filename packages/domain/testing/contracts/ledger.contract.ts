import {
  Client,
  movementView,
  openCurrentAccounts,
  ReceivableAccount,
  RunSettlementCycle,
  SettlementRunIncompleteError,
  type AccountKind,
  type NewMovement,
  type ReceivableSnapshot,
  type TransactionScope,
} from '../../src';
import { aClientDetails, aReceivableDraft, validTaxId } from '../builders';
import { FixedClock } from '../fakes';
import { useHarness, type HarnessFactory } from './harness';

const T0 = new Date('2026-04-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
let serial = 0;

async function activeAccount(tx: TransactionScope, customerId: number) {
  serial += 1;
  const { client } = await tx.clients.insertIfAbsent(Client.register(customerId, aClientDetails({ taxId: validTaxId('33', 50000000 + serial * 10) }), T0));
  const opened = ReceivableAccount.open(
    { id: await tx.receivableAccounts.nextId(), customerId, owner: { clientId: client.id, associateId: null }, currencyCode: 'ARS' },
    T0,
  );
  const { account } = await tx.receivableAccounts.insertIfAbsent(opened);
  const active = account.assignCvu(`00000441${String(account.id).padStart(14, '0')}`, `ledger.${account.id}`, T0);
  await tx.receivableAccounts.update(active);
  return { account: active, clientId: client.id };
}

/** The settlement step on every account due (or `customerId`'s), as one chunk of the cycle takes it. */
const settleDue = async (tx: TransactionScope, now: Date, customerId?: number) =>
  tx.settlements.settle(now, await tx.settlements.lockDue({ limit: 10_000, customerId }));

const collection = (customerId: number, accountId: number, amountMinor: bigint, when: Date): NewMovement => ({
  customerId,
  accountId,
  accountKind: 'RECEIVABLE',
  movementType: 'CREDIT',
  operationType: 'DEPOSIT',
  subtype: null,
  amountMinor,
  currencyCode: 'ARS',
  counterParty: { name: 'Pagador SA', taxId: '30712345671' },
  settlementId: null,
  providerReference: null,
  transferId: null,
  movementDate: when,
});

export function ledgerContract(factory: HarnessFactory): void {
  describe('ledger and settlement', () => {
    const ctx = useHarness(factory);
    const setUp = async () => {
      const customerId = await ctx.newCustomer();
      await ctx.h.uow.run((tx) => openCurrentAccounts(tx, customerId, new FixedClock(T0)));
      const [a, b, c] = await ctx.h.uow.run(async (tx) => [
        await activeAccount(tx, customerId),
        await activeAccount(tx, customerId),
        await activeAccount(tx, customerId),
      ]);
      const main = (await ctx.h.currentAccountQueries.list({ customerId, accountType: 'MAIN' }, { page: 1, count: 5 })).items[0];
      return { customerId, a, b, c, mainId: main.account.id };
    };
    const mine = (ids: number[]) => (s: { receivableAccountId: number }) => ids.includes(s.receivableAccountId);
    /** A collection of each amount on its account, in one transaction. */
    const collect = (customerId: number, credits: Array<[accountId: number, amountMinor: bigint]>) =>
      ctx.h.uow.run(async (tx) => {
        for (const [accountId, amountMinor] of credits) await tx.ledger.append(collection(customerId, accountId, amountMinor, at(1)));
      });

    it('appends movements, keeps each balance equal to their sum, and lists them by date', async () => {
      const { customerId, a } = await setUp();
      const moved = await ctx.h.uow.run(async (tx) => [
        await tx.ledger.append(collection(customerId, a.account.id, 1_050n, at(1))),
        await tx.ledger.append(collection(customerId, a.account.id, 20n, at(2))),
      ]);
      expect(moved[0]).toMatchObject({ id: expect.any(Number), amountMinor: 1_050n, counterParty: { name: 'Pagador SA', taxId: '30712345671' } });
      const page = await ctx.h.ledgerQueries.listMovements(
        { customerId, accountId: a.account.id, accountKind: 'RECEIVABLE', order: 'desc' },
        { page: 1, count: 20 },
      );
      expect(page.items.map((m) => m.id)).toEqual([moved[1].id, moved[0].id]);
      const ascending = await ctx.h.ledgerQueries.listMovements(
        { customerId, accountId: a.account.id, accountKind: 'RECEIVABLE', order: 'asc', fromDate: at(2) },
        { page: 1, count: 20 },
      );
      expect(ascending.items.map((m) => m.id)).toEqual([moved[1].id]);
      expect(await ctx.h.ledgerQueries.mismatches()).toEqual([]);
    });

    it('settles each account holding money once: a zero-sum pair of movements, balances, PAID receivables SETTLED', async () => {
      const { customerId, a, b, c, mainId } = await setUp();
      const [paidA, pendingA, paidC, paidA2] = await ctx.h.uow.run(async (tx) => {
        const p = await tx.receivables.insert(aReceivableDraft({ customerId, accountId: a.account.id, clientId: a.clientId }, { status: 'PAID' }));
        const p2 = await tx.receivables.insert(aReceivableDraft({ customerId, accountId: a.account.id, clientId: a.clientId }, { status: 'PAID' }));
        const q = await tx.receivables.insert(aReceivableDraft({ customerId, accountId: a.account.id, clientId: a.clientId }));
        const r = await tx.receivables.insert(aReceivableDraft({ customerId, accountId: c.account.id, clientId: c.clientId }, { status: 'PAID' }));
        await tx.ledger.append(collection(customerId, a.account.id, 10_000n, at(1)));
        await tx.ledger.append(collection(customerId, a.account.id, 2_345n, at(2)));
        await tx.ledger.append(collection(customerId, b.account.id, 1n, at(3)));
        return [p, q, r, p2];
      });
      const now = at(10);
      const { opened, batches } = await ctx.h.uow.run(async (tx) => {
        const settlements = await settleDue(tx, now);
        const streamed: ReceivableSnapshot[][] = [];
        for await (const batch of tx.settlements.settledReceivables(settlements, 1)) streamed.push([...batch]);
        await tx.settlements.credit(settlements, now);
        return { opened: settlements, batches: streamed };
      });
      const ours = opened.filter(mine([a.account.id, b.account.id, c.account.id]));
      expect(ours.map((s) => [s.receivableAccountId, s.amountMinor, s.currentAccountId])).toEqual([
        [a.account.id, 12_345n, mainId],
        [b.account.id, 1n, mainId],
      ]);
      expect(batches.every((batch) => batch.length === 1)).toBe(true);
      expect(
        batches
          .flat()
          .filter((r) => r.customerId === customerId)
          .map((r) => [r.id, r.status]),
      ).toEqual([
        [paidA.id, 'SETTLED'],
        [paidA2.id, 'SETTLED'],
      ]);
      expect((await ctx.h.receivableQueries.get(pendingA.id))?.status).toBe('PENDING');
      expect((await ctx.h.receivableQueries.get(paidC.id))?.status).toBe('PAID');
      const main = await ctx.h.currentAccountQueries.get(mainId);
      expect(main?.balanceMinor).toBe(12_346n);
      expect(main?.account.lastSettlementDate).toEqual(now);
      const out = await ctx.h.ledgerQueries.listMovements(
        { customerId, accountId: a.account.id, accountKind: 'RECEIVABLE', order: 'desc' },
        { page: 1, count: 1 },
      );
      expect(out.items[0]).toMatchObject({
        movementType: 'DEBIT',
        operationType: 'SETTLEMENT',
        subtype: 'SETTLEMENT_OUT',
        amountMinor: 12_345n,
        settlementId: ours[0].id,
      });
      const into = await ctx.h.ledgerQueries.listMovements({ customerId, accountId: mainId, accountKind: 'CURRENT', order: 'asc' }, { page: 1, count: 5 });
      expect(into.items.map((m) => [m.subtype, m.amountMinor])).toEqual([
        ['SETTLEMENT_IN', 12_345n],
        ['SETTLEMENT_IN', 1n],
      ]);
      expect(await ctx.h.ledgerQueries.mismatches()).toEqual([]);

      const again = await ctx.h.uow.run((tx) => settleDue(tx, at(20)));
      expect(again.filter(mine([a.account.id, b.account.id, c.account.id]))).toEqual([]);
      expect((await ctx.h.settlementQueries.get(ours[0].id))?.receivableIds).toEqual([paidA.id, paidA2.id]);
      const listed = await ctx.h.settlementQueries.list({ customerId, receivableAccountId: a.account.id }, { page: 1, count: 20 });
      expect(listed.items.map((s) => s.id)).toEqual([ours[0].id]);
    });

    it('writes a movement.created per settlement movement in its transaction, carrying the movement as its list renders it', async () => {
      const { customerId, a, b, c, mainId } = await setUp();
      await collect(customerId, [
        [a.account.id, 10_050n],
        [b.account.id, 7n],
        [c.account.id, 20_000n],
      ]);
      const now = at(10);
      await ctx.h.uow.run(async (tx) => tx.settlements.credit(await settleDue(tx, now, customerId), now));
      const settlementMovements = async (accountId: number, accountKind: AccountKind) =>
        (await ctx.h.ledgerQueries.listMovements({ customerId, accountId, accountKind, operationType: 'SETTLEMENT', order: 'asc' }, { page: 1, count: 10 }))
          .items;
      const movements = [
        ...(await settlementMovements(a.account.id, 'RECEIVABLE')),
        ...(await settlementMovements(b.account.id, 'RECEIVABLE')),
        ...(await settlementMovements(c.account.id, 'RECEIVABLE')),
        ...(await settlementMovements(mainId, 'CURRENT')),
      ].sort((x, y) => x.id - y.id);
      expect(movements.map((m) => m.subtype)).toEqual([...Array<string>(3).fill('SETTLEMENT_OUT'), ...Array<string>(3).fill('SETTLEMENT_IN')]);
      const events = (await ctx.h.readOutbox(customerId)).filter((e) => e.type === 'movement.created');
      expect(events.every((e) => /^evt_\w{24}$/.test(e.id) && e.occurredAt.getTime() === now.getTime())).toBe(true);
      const carried = events.map((e) => e.data.movement as { id: number }).sort((x, y) => x.id - y.id);
      expect(carried).toEqual(movements.map(movementView));

      await expect(
        ctx.h.uow.run(async (tx) => {
          await tx.ledger.append(collection(customerId, a.account.id, 1n, at(11)));
          await tx.settlements.credit(await settleDue(tx, at(12), customerId), at(12));
          throw new Error('crash before commit');
        }),
      ).rejects.toThrow('crash');
      expect((await ctx.h.readOutbox(customerId)).filter((e) => e.type === 'movement.created')).toHaveLength(6);
    });

    it("settles only one customer's accounts when asked for that customer, and the others' at the next run for all", async () => {
      const mine = await setUp();
      const theirs = await setUp();
      await ctx.h.uow.run(async (tx) => {
        await tx.ledger.append(collection(mine.customerId, mine.a.account.id, 500n, at(1)));
        await tx.ledger.append(collection(theirs.customerId, theirs.a.account.id, 700n, at(1)));
      });
      const settleFor = (customerId?: number) =>
        ctx.h.uow.run(async (tx) => {
          const settlements = await settleDue(tx, at(5), customerId);
          await tx.settlements.credit(settlements, at(5));
          return settlements.map((s) => [s.customerId, s.receivableAccountId, s.amountMinor]);
        });
      expect(await settleFor(mine.customerId)).toEqual([[mine.customerId, mine.a.account.id, 500n]]);
      expect((await ctx.h.currentAccountQueries.get(theirs.mainId))?.balanceMinor).toBe(0n);
      expect(await settleFor()).toContainEqual([theirs.customerId, theirs.a.account.id, 700n]);
      expect((await ctx.h.currentAccountQueries.get(theirs.mainId))?.balanceMinor).toBe(700n);
      expect(await ctx.h.ledgerQueries.mismatches()).toEqual([]);
    });

    it('settles each account once when the settlement cycle runs inside an open transaction', async () => {
      const { customerId, a, b, c, mainId } = await setUp();
      await collect(customerId, [
        [a.account.id, 500n],
        [b.account.id, 700n],
        [c.account.id, 11n],
      ]);
      const result = await ctx.h.begin(({ uow }) => new RunSettlementCycle(uow, new FixedClock(at(5))).execute({ customerId, chunkSize: 1 }));
      expect(result).toEqual({ settlements: 3, settledReceivables: 0, settledAmountMinor: 1_211n });
      const settled = await ctx.h.settlementQueries.list({ customerId }, { page: 1, count: 20 });
      const byAccount = settled.items.map((s) => [s.receivableAccountId, s.amountMinor] as const).sort(([x], [y]) => x - y);
      expect(byAccount).toEqual([
        [a.account.id, 500n],
        [b.account.id, 700n],
        [c.account.id, 11n],
      ]);
      expect((await ctx.h.currentAccountQueries.get(mainId))?.balanceMinor).toBe(1_211n);
      expect(await ctx.h.ledgerQueries.mismatches()).toEqual([]);
    });

    it('finds accounts by CVU and movements by provider reference, one movement per reference', async () => {
      const { customerId, a } = await setUp();
      const cvu = a.account.toSnapshot().cvu!;
      expect((await ctx.h.uow.run((tx) => tx.receivableAccounts.getByCvuForUpdate(cvu)))?.id).toBe(a.account.id);
      const reference = `prov-${a.account.id}`;
      const first = await ctx.h.uow.run((tx) => tx.ledger.append({ ...collection(customerId, a.account.id, 99n, at(1)), providerReference: reference }));
      expect((await ctx.h.uow.run((tx) => tx.ledger.findByProviderReference(reference)))?.id).toBe(first.id);
      await expect(
        ctx.h.uow.run((tx) => tx.ledger.append({ ...collection(customerId, a.account.id, 99n, at(2)), providerReference: reference })),
      ).rejects.toThrow();
      expect(await ctx.h.ledgerQueries.mismatches()).toEqual([]);
    });

    it('settles every other account of a chunk when one cannot be settled, names it, and settles it at a run once it can', async () => {
      const first = await setUp();
      const broken = await ctx.newCustomer(); // no current accounts yet: nothing to settle into
      // Three in a row (ids that follow each other), as a customer's accounts opened together are.
      const poisoned = await ctx.h.uow.run(async (tx) => [await activeAccount(tx, broken), await activeAccount(tx, broken), await activeAccount(tx, broken)]);
      const [poison] = poisoned;
      const last = await setUp();
      await collect(first.customerId, [[first.a.account.id, 100n]]);
      await collect(broken, [[poison.account.id, 200n], ...poisoned.slice(1).map(({ account }): [number, bigint] => [account.id, 1n])]);
      await collect(last.customerId, [[last.a.account.id, 300n]]);
      const cycle = new RunSettlementCycle(ctx.h.uow, new FixedClock(at(30)));
      const failure: unknown = await cycle.execute({ chunkSize: 50 }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(SettlementRunIncompleteError);
      const incomplete = failure as SettlementRunIncompleteError;
      // The run's loops settle side by side: which one meets which poisoned account first varies.
      expect([...incomplete.failures.keys()].sort((a, b) => a - b)).toEqual(poisoned.map(({ account }) => account.id));
      expect(incomplete.message).toContain(`${poison.account.id} (receivable accounts ${poison.account.id} have no MAIN current account to settle into)`);
      expect(incomplete.settled.settlements).toBeGreaterThanOrEqual(2);
      expect((await ctx.h.currentAccountQueries.get(first.mainId))?.balanceMinor).toBe(100n);
      expect((await ctx.h.currentAccountQueries.get(last.mainId))?.balanceMinor).toBe(300n);
      expect((await ctx.h.settlementQueries.list({ customerId: broken }, { page: 1, count: 20 })).total).toBe(0);
      expect(await ctx.h.ledgerQueries.mismatches()).toEqual([]);

      await ctx.h.uow.run((tx) => openCurrentAccounts(tx, broken, new FixedClock(T0)));
      expect((await cycle.execute()).settlements).toBeGreaterThanOrEqual(1);
      const settled = await ctx.h.settlementQueries.list({ customerId: broken }, { page: 1, count: 20 });
      expect([...settled.items].sort((x, y) => x.receivableAccountId - y.receivableAccountId).map((s) => [s.receivableAccountId, s.amountMinor])).toEqual([
        [poison.account.id, 200n],
        ...poisoned.slice(1).map(({ account }) => [account.id, 1n]),
      ]);
      expect(await ctx.h.ledgerQueries.mismatches()).toEqual([]);
    });

    it('undoes a whole settlement chunk whose transaction fails', async () => {
      const { customerId, a, mainId } = await setUp();
      await ctx.h.uow.run((tx) => tx.ledger.append(collection(customerId, a.account.id, 700n, at(1))));
      await expect(
        ctx.h.uow.run(async (tx) => {
          await tx.settlements.credit(await settleDue(tx, at(5)), at(5));
          throw new Error('crash after the settlement statements');
        }),
      ).rejects.toThrow('crash');
      expect((await ctx.h.currentAccountQueries.get(mainId))?.balanceMinor).toBe(0n);
      expect((await ctx.h.settlementQueries.list({ customerId }, { page: 1, count: 20 })).total).toBe(0);
      expect(await ctx.h.ledgerQueries.mismatches()).toEqual([]);
    });
  });
}
