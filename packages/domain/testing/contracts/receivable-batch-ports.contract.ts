import { MAX_AMOUNT_MINOR, ReceivableAccount } from '../../src';
import { aReceivableDraft } from '../builders';
import { useHarness, type HarnessFactory } from './harness';
import { anAccount } from './receivable-repository.contract';

let serial = 0;

/** The reads and the write a receivable batch is made of: many rows per call, each call one query. */
export function receivableBatchPortsContract(factory: HarnessFactory): void {
  describe('receivable batch ports', () => {
    const ctx = useHarness(factory);
    const setUp = async () => {
      const customerId = await ctx.newCustomer();
      const { account, client, associate } = await ctx.h.uow.run((tx) => anAccount(tx, customerId));
      return { customerId, accountId: account.id, clientId: client.id, associateId: associate.id, account };
    };

    it('stores many receivables at once, every field, returned in the order given with increasing ids', async () => {
      const base = await setUp();
      serial += 1;
      const drafts = [
        aReceivableDraft(base, { amountMinor: MAX_AMOUNT_MINOR, legalNumber: `M-${serial}-1`, description: 'Primera', dueDate: '2026-03-31' }),
        aReceivableDraft(base, { receivableType: 'DEBT', externalRoutingCode: 'R', associateId: base.associateId }),
        aReceivableDraft(base, {
          amountMinor: 1n,
          legalNumber: `M-${serial}-3`,
          invoiceData: { version: '1', pointOfSale: '0001', rawDocumentType: '01', authCodeType: 'CAE', authCode: '7' },
          description: 'quote " and \\ backslash, {braces}',
        }),
      ];
      const stored = await ctx.h.uow.run((tx) => tx.receivables.insertMany(drafts));
      expect(stored.map((r) => r.toSnapshot())).toEqual(
        drafts.map((draft, i) => ({ ...draft, id: stored[i].id, modificationDate: draft.creationDate, version: 1 })),
      );
      expect(stored.map((r) => r.id)).toEqual([...stored.map((r) => r.id)].sort((a, b) => a - b));
      expect((await ctx.h.receivableQueries.get(stored[2].id))?.toSnapshot()).toEqual(stored[2].toSnapshot());
      expect(await ctx.h.uow.run((tx) => tx.receivables.insertMany([]))).toEqual([]);
    });

    it('stores none of a batch whose legalNumber is taken, and tells which numbers are', async () => {
      const base = await setUp();
      serial += 1;
      const taken = `T-${serial}`;
      await ctx.h.uow.run((tx) => tx.receivables.insert(aReceivableDraft(base, { legalNumber: taken })));
      const attempt = ctx.h.uow.run((tx) =>
        tx.receivables.insertMany([aReceivableDraft(base, { legalNumber: `F-${serial}` }), aReceivableDraft(base, { legalNumber: taken })]),
      );
      await expect(attempt).rejects.toMatchObject({ code: 'duplicated-legal-number' });
      const inUse = await ctx.h.uow.run((tx) => tx.receivables.legalNumbersInUse(base.customerId, [taken, `F-${serial}`, 'never']));
      expect([...inUse]).toEqual([taken]);
      const other = await ctx.newCustomer();
      expect([...(await ctx.h.uow.run((tx) => tx.receivables.legalNumbersInUse(other, [taken])))]).toEqual([]);
    });

    it('reads parents with their active children, and skips ids that do not exist', async () => {
      const base = await setUp();
      const [parent, lone] = await ctx.h.uow.run((tx) => tx.receivables.insertMany([aReceivableDraft(base), aReceivableDraft(base)]));
      const [kept, cancelled] = await ctx.h.uow.run((tx) =>
        tx.receivables.insertMany([
          aReceivableDraft(base, { receivableType: 'CREDIT_NOTE', parentReceivableId: parent.id, amountMinor: 100n }),
          aReceivableDraft(base, { receivableType: 'RETENTION', parentReceivableId: parent.id, amountMinor: 200n }),
        ]),
      );
      await ctx.h.uow.run((tx) => tx.receivables.update(cancelled.cancel(new Date('2026-03-02T00:00:00Z'))));
      const families = await ctx.h.uow.run((tx) => tx.receivables.familiesForUpdate([lone.id, parent.id, 987654321, kept.id]));
      const summary = families.map((f) => [f.parent.id, f.activeChildren.map((c) => c.id)]).sort(([a], [b]) => Number(a) - Number(b));
      expect(summary).toEqual([
        [parent.id, [kept.id]],
        [lone.id, []],
        [kept.id, []],
      ]);
    });

    it('opens many accounts at once, each once: an owner that has one gets it back, not created', async () => {
      const base = await setUp();
      const second = await ctx.h.uow.run((tx) => anAccount(tx, base.customerId));
      const ids = await ctx.h.uow.run((tx) => tx.receivableAccounts.nextIds(2));
      expect(new Set(ids).size).toBe(2);
      const open = (id: number, owner: { clientId: number | null; associateId: number | null }) =>
        ReceivableAccount.open({ id, customerId: base.customerId, owner, currencyCode: 'ARS' }, new Date('2026-03-01T10:00:00Z'));
      const fresh = open(ids[0], { clientId: base.clientId, associateId: null });
      const taken = open(ids[1], { clientId: second.client.id, associateId: second.associate.id });
      const results = await ctx.h.uow.run((tx) => tx.receivableAccounts.insertManyIfAbsent([fresh, taken]));
      expect(results.map((r) => [r.account.id, r.created])).toEqual([
        [fresh.id, true],
        [second.account.id, false],
      ]);
      expect(results[0].account.toSnapshot()).toEqual(fresh.toSnapshot());
      expect(await ctx.h.uow.run((tx) => tx.receivableAccounts.nextIds(0))).toEqual([]);
    });

    it('reads accounts, clients, associates and route settlements by many ids or codes at once', async () => {
      const base = await setUp();
      const second = await ctx.h.uow.run((tx) => anAccount(tx, base.customerId));
      const ids = (rows: ReadonlyArray<{ id: number }>) => rows.map((r) => r.id).sort((a, b) => a - b);
      const [accounts, clients, associates, none] = await ctx.h.uow.run(async (tx) => [
        await tx.receivableAccounts.getMany([second.account.id, base.accountId, 987654321, base.accountId]),
        await tx.clients.getMany([base.clientId, second.client.id]),
        await tx.associates.getManyForShare([second.associate.id, 987654321]),
        await tx.receivableAccounts.getMany([]),
      ]);
      expect(ids(accounts)).toEqual([base.accountId, second.account.id].sort((a, b) => a - b));
      expect(accounts.find((a) => a.id === base.accountId)?.toSnapshot()).toEqual(base.account.toSnapshot());
      expect(ids(clients)).toEqual([base.clientId, second.client.id].sort((a, b) => a - b));
      expect(ids(associates)).toEqual([second.associate.id]);
      expect(none).toEqual([]);
      serial += 1;
      const route = { customerId: base.customerId, date: '2026-03-01', associateId: base.associateId, creationDate: new Date(), modificationDate: new Date() };
      await ctx.h.uow.run(async (tx) => {
        await tx.routeSettlements.insertIfAbsent({ ...route, routeCode: `A-${serial}` });
        await tx.routeSettlements.insertIfAbsent({ ...route, routeCode: `B-${serial}` });
      });
      const found = await ctx.h.uow.run((tx) => tx.routeSettlements.findByCodes(base.customerId, [`B-${serial}`, 'missing']));
      expect(found.map((s) => s.routeCode)).toEqual([`B-${serial}`]);
      const stranger = await ctx.newCustomer();
      expect(await ctx.h.uow.run((tx) => tx.routeSettlements.findByCodes(stranger, [`B-${serial}`]))).toEqual([]);
    });
  });
}
