import { Associate, Client, MAX_AMOUNT_MINOR, ReceivableAccount, type TransactionScope } from '../../src';
import { aClientDetails, anAssociateDetails, aReceivableDraft, validTaxId } from '../builders';
import { useHarness, type HarnessFactory, type TestDefinition } from './harness';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
let serial = 0;

export async function anAccount(tx: TransactionScope, customerId: number) {
  serial += 1;
  const { client } = await tx.clients.insertIfAbsent(Client.register(customerId, aClientDetails({ taxId: validTaxId('30', 30000000 + serial * 10) }), T0));
  const { associate } = await tx.associates.insertIfAbsent(
    Associate.register(customerId, anAssociateDetails({ taxId: validTaxId('20', 30000000 + serial * 10) }), T0),
  );
  const draft = ReceivableAccount.open(
    { id: await tx.receivableAccounts.nextId(), customerId, owner: { clientId: client.id, associateId: associate.id }, currencyCode: 'ARS' },
    T0,
  );
  const { account } = await tx.receivableAccounts.insertIfAbsent(draft);
  return { account, client, associate };
}

const aDraft = aReceivableDraft;

export function receivableRepositoryContract(factory: HarnessFactory, itRacing: TestDefinition): void {
  describe('receivable and route settlement repositories', () => {
    const ctx = useHarness(factory);
    const setUp = async () => {
      const customerId = await ctx.newCustomer();
      const { account, client, associate } = await ctx.h.uow.run((tx) => anAccount(tx, customerId));
      return { customerId, accountId: account.id, clientId: client.id, associateId: associate.id };
    };

    it('stores every field and reads it back, the largest amount exactly', async () => {
      const base = await setUp();
      const draft = aDraft(base, {
        amountMinor: MAX_AMOUNT_MINOR,
        legalNumber: `A-0001-${serial}`,
        description: 'Factura marzo',
        externalRoutingCode: 'R1',
        issueDate: '2026-03-01',
        dueDate: '2026-03-31',
        attachmentUri: 'https://files.example/a.pdf',
        invoiceData: { version: '1', pointOfSale: '0001', rawDocumentType: '01', authCodeType: 'CAE', authCode: '7412' },
      });
      const stored = await ctx.h.uow.run((tx) => tx.receivables.insert(draft));
      expect(stored.toSnapshot()).toEqual({ ...draft, id: stored.id, modificationDate: T0, version: 1 });
      expect((await ctx.h.receivableQueries.get(stored.id))?.toSnapshot()).toEqual(stored.toSnapshot());
    });

    it('stores a receivable under the id newId gave, answering what it stored, and refuses a duplicated legal number under one too', async () => {
      const base = await setUp();
      const draft = aDraft(base, { description: 'numbered first', dueDate: '2026-03-31' });
      const stored = await ctx.h.uow.run(async (tx) => tx.receivables.insert(draft, await tx.receivables.newId()));
      const later = await ctx.h.uow.run(async (tx) => tx.receivables.insert(aDraft(base), await tx.receivables.newId()));
      expect(later.id).toBeGreaterThan(stored.id);
      expect(stored.toSnapshot()).toEqual({ ...draft, id: stored.id, modificationDate: T0, version: 1 });
      expect((await ctx.h.receivableQueries.get(stored.id))?.toSnapshot()).toEqual(stored.toSnapshot());
      const number = `LN-N-${serial}`;
      await ctx.h.uow.run(async (tx) => tx.receivables.insert(aDraft(base, { legalNumber: number }), await tx.receivables.newId()));
      await expect(
        ctx.h.uow.run(async (tx) => tx.receivables.insert(aDraft(base, { legalNumber: number }), await tx.receivables.newId())),
      ).rejects.toMatchObject({ code: 'duplicated-legal-number' });
    });

    it('keeps legal numbers unique per customer, on insert and on update', async () => {
      const base = await setUp();
      const other = await setUp();
      const number = `LN-${serial}`;
      await ctx.h.uow.run((tx) => tx.receivables.insert(aDraft(base, { legalNumber: number })));
      await expect(ctx.h.uow.run((tx) => tx.receivables.insert(aDraft(base, { legalNumber: number })))).rejects.toMatchObject({
        code: 'duplicated-legal-number',
      });
      await expect(ctx.h.uow.run((tx) => tx.receivables.insert(aDraft(other, { legalNumber: number })))).resolves.toBeDefined();
      const plain = await ctx.h.uow.run((tx) => tx.receivables.insert(aDraft(base)));
      await expect(ctx.h.uow.run((tx) => tx.receivables.update(plain.edit({ legalNumber: number }, at(1))))).rejects.toMatchObject({
        code: 'duplicated-legal-number',
      });
    });

    it('saves several at once, every field, and none of them when one is stale or its legal number changed', async () => {
      const base = await setUp();
      const invoiceData = { version: '1', pointOfSale: '0002', rawDocumentType: '01', authCodeType: 'CAE', authCode: '9' };
      const [a, b] = await ctx.h.uow.run(async (tx) => [
        await tx.receivables.insert(aDraft(base, { dueDate: '2026-03-01', legalNumber: `M-A-${serial}`, invoiceData })),
        await tx.receivables.insert(aDraft(base, { dueDate: '2026-03-02' })),
      ]);
      const [expired, edited] = [a.expire(at(1)), b.edit({ description: 'edited', amountMinor: MAX_AMOUNT_MINOR }, at(1))];
      await ctx.h.uow.run((tx) => tx.receivables.updateMany([expired, edited]));
      expect((await ctx.h.receivableQueries.get(a.id))?.toSnapshot()).toEqual(expired.toSnapshot());
      expect((await ctx.h.receivableQueries.get(b.id))?.toSnapshot()).toEqual(edited.toSnapshot());

      const stale = a.edit({ description: 'stale' }, at(2));
      const fresh = edited.edit({ description: 'fresh' }, at(2));
      await expect(ctx.h.uow.run((tx) => tx.receivables.updateMany([fresh, stale]))).rejects.toMatchObject({ code: 'concurrent-modification' });
      const renumbered = expired.edit({ legalNumber: `M-B-${serial}` }, at(2));
      await expect(ctx.h.uow.run((tx) => tx.receivables.updateMany([fresh, renumbered]))).rejects.toMatchObject({ code: 'concurrent-modification' });
      expect((await ctx.h.receivableQueries.get(b.id))?.toSnapshot()).toEqual(edited.toSnapshot());
      expect((await ctx.h.receivableQueries.get(a.id))?.toSnapshot()).toEqual(expired.toSnapshot());
      await expect(ctx.h.uow.run((tx) => tx.receivables.updateMany([fresh, fresh]))).rejects.toThrow('more than once');
    });

    it('finds active children, and the expiry queue of PENDING receivables past due, children included', async () => {
      const base = await setUp();
      const [parent, due, notYet] = await ctx.h.uow.run(async (tx) => [
        await tx.receivables.insert(aDraft(base, { dueDate: '2026-03-01' })),
        await tx.receivables.insert(aDraft(base, { dueDate: '2026-03-09' })),
        await tx.receivables.insert(aDraft(base, { dueDate: '2026-03-10' })),
      ]);
      const [kept, cancelled] = await ctx.h.uow.run(async (tx) => [
        await tx.receivables.insert(aDraft(base, { receivableType: 'CREDIT_NOTE', parentReceivableId: parent.id, dueDate: '2026-03-01', amountMinor: 100n })),
        await tx.receivables.insert(aDraft(base, { receivableType: 'RETENTION', parentReceivableId: parent.id, amountMinor: 100n })),
      ]);
      await ctx.h.uow.run((tx) => tx.receivables.update(cancelled.cancel(at(1))));
      expect((await ctx.h.uow.run((tx) => tx.receivables.activeChildren(parent.id))).map((c) => c.id)).toEqual([kept.id]);
      const queue = (await ctx.h.uow.run((tx) => tx.receivables.dueForExpiry('2026-03-10', 10_000))).map((r) => r.id);
      expect(queue).toEqual(expect.arrayContaining([parent.id, due.id, kept.id]));
      expect(queue).not.toContain(notYet.id);
      expect(queue).not.toContain(cancelled.id);
    });

    it("keeps the expiry queue to one customer's receivables when asked for that customer", async () => {
      const [mine, theirs] = [await setUp(), await setUp()];
      const [own] = await ctx.h.uow.run(async (tx) => [
        await tx.receivables.insert(aDraft(mine, { dueDate: '2026-03-01' })),
        await tx.receivables.insert(aDraft(theirs, { dueDate: '2026-03-01' })),
      ]);
      const queue = (await ctx.h.uow.run((tx) => tx.receivables.dueForExpiry('2026-03-10', 10_000, mine.customerId))).map((r) => r.id);
      expect(queue).toEqual([own.id]);
    });

    it('lists with every filter, newest first', async () => {
      const base = await setUp();
      const other = await ctx.h.uow.run((tx) => anAccount(tx, base.customerId));
      const rows = await ctx.h.uow.run(async (tx) => [
        await tx.receivables.insert(
          aDraft(base, { amountMinor: 500n, dueDate: '2026-04-01', issueDate: '2026-03-01', legalNumber: `F-${serial}`, creationDate: at(1) }),
        ),
        await tx.receivables.insert(
          aDraft(base, { amountMinor: 1500n, dueDate: '2026-05-01', externalRoutingCode: 'RT', associateId: base.associateId, creationDate: at(2) }),
        ),
        await tx.receivables.insert(
          aDraft({ ...base, accountId: other.account.id, clientId: other.client.id }, { receivableType: 'DEBT', creationDate: at(3) }),
        ),
      ]);
      const child = await ctx.h.uow.run((tx) =>
        tx.receivables.insert(aDraft(base, { receivableType: 'ADJUSTMENT', parentReceivableId: rows[1].id, amountMinor: 100n, creationDate: at(4) })),
      );
      await ctx.h.uow.run((tx) => tx.receivables.update(rows[0].markPaid(at(5))));
      const ids = (filter: object) =>
        ctx.h.receivableQueries.list({ customerId: base.customerId, ...filter }, { page: 1, count: 20 }).then((p) => p.items.map((r) => r.id));
      const [a, b, c] = rows.map((r) => r.id);
      expect(await ids({})).toEqual([child.id, c, b, a]);
      expect(await ids({ receivableAccountId: base.accountId })).toEqual([child.id, b, a]);
      expect(await ids({ clientId: other.client.id })).toEqual([c]);
      expect(await ids({ associateId: base.associateId })).toEqual([b]);
      expect(await ids({ status: 'PAID' })).toEqual([a]);
      expect(await ids({ receivableType: 'DEBT' })).toEqual([c]);
      expect(await ids({ fromDueDate: '2026-04-15', toDueDate: '2026-05-01' })).toEqual([b]);
      expect(await ids({ fromIssueDate: '2026-03-01', toIssueDate: '2026-03-01' })).toEqual([a]);
      expect(await ids({ legalNumber: `F-${serial}` })).toEqual([a]);
      expect(await ids({ externalRoutingCode: 'RT' })).toEqual([b]);
      expect(await ids({ parentReceivableId: b })).toEqual([child.id]);
      expect(await ids({ minAmountMinor: 500n, maxAmountMinor: 1500n })).toEqual([b, a]);
      expect(await ids({ fromDate: at(2), toDate: at(3) })).toEqual([c, b]);
      const record = await ctx.h.receivableAccountQueries.get(base.accountId);
      expect(record?.pendingAmountMinor).toBe(1500n + 100n);
      expect(await ctx.h.uow.run((tx) => tx.receivableAccounts.pendingAmountMinor(base.accountId))).toBe(1500n + 100n);
    });

    it('keeps one route settlement per code and sums its receivables net of negative types', async () => {
      const base = await setUp();
      const code = `ROUTE-${serial}`;
      const draft = { customerId: base.customerId, routeCode: code, date: '2026-03-01', associateId: base.associateId, creationDate: T0, modificationDate: T0 };
      const first = await ctx.h.uow.run((tx) => tx.routeSettlements.insertIfAbsent(draft));
      const again = await ctx.h.uow.run((tx) => tx.routeSettlements.insertIfAbsent(draft));
      expect([first.created, again.created]).toEqual([true, false]);
      const settlementId = first.settlement.id;
      expect(again.settlement).toEqual(first.settlement);
      const invoice = await ctx.h.uow.run((tx) => tx.receivables.insert(aDraft(base, { amountMinor: 10_000n, routeSettlementId: settlementId })));
      await ctx.h.uow.run(async (tx) => {
        await tx.receivables.insert(
          aDraft(base, { receivableType: 'RETURN_PRODUCT', parentReceivableId: invoice.id, amountMinor: 2_550n, routeSettlementId: settlementId }),
        );
        const dropped = await tx.receivables.insert(aDraft(base, { amountMinor: 999n, routeSettlementId: settlementId }));
        await tx.receivables.update(dropped.cancel(at(1)));
      });
      const record = await ctx.h.routeSettlementQueries.getByCode(base.customerId, code);
      expect(record?.summary).toEqual({
        receivablesCount: 2,
        totalAmountMinor: 7_450n,
        byReceivableType: [
          { type: 'INVOICE', count: 1, amountMinor: 10_000n },
          { type: 'RETURN_PRODUCT', count: 1, amountMinor: -2_550n },
        ],
        receivableAccountIds: [base.accountId],
      });
      const listed = await ctx.h.routeSettlementQueries.list(
        { customerId: base.customerId, associateId: base.associateId, fromDate: '2026-03-01', toDate: '2026-03-01' },
        { page: 1, count: 20 },
      );
      expect(listed.items.map((r) => r.settlement.routeCode)).toEqual([code]);
      expect(await ctx.h.routeSettlementQueries.getByCode(await ctx.newCustomer(), code)).toBeUndefined();
    });

    itRacing('keeps one route settlement per code when transactions insert it at once', async () => {
      const base = await setUp();
      const draft = {
        customerId: base.customerId,
        routeCode: `RACE-${serial}`,
        date: '2026-03-01',
        associateId: base.associateId,
        creationDate: T0,
        modificationDate: T0,
      };
      const results = await Promise.all([0, 1, 2].map(() => ctx.h.uow.run((tx) => tx.routeSettlements.insertIfAbsent(draft))));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.settlement.id)).size).toBe(1);
    });
  });
}
