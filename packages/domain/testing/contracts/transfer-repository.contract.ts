import { MAX_AMOUNT_MINOR, openCurrentAccounts, type TransactionScope } from '../../src';
import { A_CBU, aTransferDraft } from '../builders';
import { useHarness, type HarnessFactory, type TestDefinition } from './harness';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
let serial = 0;

/** A customer's MAIN and SUB current accounts and one credential, the least a transfer refers to. */
export async function aSource(tx: TransactionScope, customerId: number) {
  await openCurrentAccounts(tx, customerId, { now: () => T0 });
  const [main, sub] = await tx.currentAccounts.listByCustomer(customerId);
  const credential = async () =>
    (
      await tx.credentials.insertIfAbsent({
        customerId,
        clientId: `transfer-contract-${process.pid}-${++serial}`,
        secretHash: 'hash',
        scopes: ['transfers:write', 'transfers:approve'],
        status: 'ACTIVE',
        creationDate: T0,
      })
    ).credential.id;
  return { customerId, sourceAccountId: main.id, otherAccountId: sub.id, credentialId: await credential(), approverId: await credential() };
}

export function transferRepositoryContract(factory: HarnessFactory, itRacing: TestDefinition): void {
  describe('transfer repository', () => {
    const ctx = useHarness(factory);
    const setUp = async () => {
      const customerId = await ctx.newCustomer();
      return ctx.h.uow.run((tx) => aSource(tx, customerId));
    };

    it('stores every field of an outgoing transfer and reads it back, the largest amount exactly', async () => {
      const on = await setUp();
      const draft = aTransferDraft(on, {
        amountMinor: MAX_AMOUNT_MINOR,
        destination: { cbuCvu: A_CBU, alias: 'proveedor.pago', accountId: null, counterParty: { name: 'Proveedor SA', taxId: '30712345670' } },
        contactId: 99,
        description: 'Pago factura 12',
        externalId: 'ERP-PAY-1',
        scheduledDate: '2026-03-05',
        status: 'SCHEDULED',
      });
      const stored = await ctx.h.uow.run((tx) => tx.transfers.insert(draft));
      expect(stored.toSnapshot()).toEqual({ ...draft, id: stored.id, modificationDate: T0, version: 1 });
      expect((await ctx.h.transferQueries.get(stored.id))?.toSnapshot()).toEqual(stored.toSnapshot());
    });

    it('stores an internal transfer with its destination account', async () => {
      const on = await setUp();
      const destination = { cbuCvu: null, alias: null, accountId: on.otherAccountId, counterParty: null };
      const stored = await ctx.h.uow.run((tx) => tx.transfers.insert(aTransferDraft(on, { type: 'INTERNAL_TRANSFER', destination })));
      expect((await ctx.h.transferQueries.get(stored.id))?.toSnapshot().destination).toEqual(destination);
    });

    it('saves a move with its new fields, and refuses a stale one', async () => {
      const on = await setUp();
      const stored = await ctx.h.uow.run((tx) => tx.transfers.insert(aTransferDraft(on, { status: 'PENDING_APPROVAL' })));
      await ctx.h.uow.run((tx) => tx.transfers.update(stored.approve(on.approverId, '2026-03-01', at(1))));
      expect((await ctx.h.transferQueries.get(stored.id))?.toSnapshot()).toMatchObject({
        status: 'PENDING',
        approvedByCredentialId: on.approverId,
        version: 2,
      });
      await expect(ctx.h.uow.run((tx) => tx.transfers.update(stored.cancel(at(2))))).rejects.toMatchObject({ code: 'concurrent-modification' });
    });

    it('lists a customer’s transfers newest first, by each filter, with the total', async () => {
      const on = await setUp();
      const other = await setUp();
      const [first, second, third] = await ctx.h.uow.run(async (tx) => [
        await tx.transfers.insert(aTransferDraft(on, { externalId: 'A-1', creationDate: at(1) })),
        await tx.transfers.insert(aTransferDraft(on, { status: 'SCHEDULED', scheduledDate: '2026-03-09', creationDate: at(2) })),
        await tx.transfers.insert(
          aTransferDraft(
            { ...on, sourceAccountId: on.otherAccountId },
            { type: 'INTERNAL_TRANSFER', destination: { cbuCvu: null, alias: null, accountId: on.sourceAccountId, counterParty: null }, creationDate: at(3) },
          ),
        ),
      ]);
      await ctx.h.uow.run((tx) => tx.transfers.insert(aTransferDraft(other, { externalId: 'A-1' })));
      const ids = async (filter: object, page = { page: 1, count: 20 }) => {
        const result = await ctx.h.transferQueries.list({ customerId: on.customerId, ...filter }, page);
        return { ids: result.items.map((t) => t.id), total: result.total };
      };
      expect(await ids({})).toEqual({ ids: [third.id, second.id, first.id], total: 3 });
      expect(await ids({}, { page: 2, count: 2 })).toEqual({ ids: [first.id], total: 3 });
      expect((await ids({ type: 'INTERNAL_TRANSFER' })).ids).toEqual([third.id]);
      expect((await ids({ status: 'SCHEDULED' })).ids).toEqual([second.id]);
      expect((await ids({ sourceAccountId: on.otherAccountId })).ids).toEqual([third.id]);
      expect((await ids({ sourceAccountId: other.sourceAccountId })).ids).toEqual([]);
      expect((await ids({ externalId: 'A-1' })).ids).toEqual([first.id]);
      expect((await ids({ fromDate: at(2), toDate: at(2) })).ids).toEqual([second.id]);
    });

    itRacing('lets one of two transactions changing the same transfer at once win; the other sees its result', async () => {
      const on = await setUp();
      const stored = await ctx.h.uow.run((tx) => tx.transfers.insert(aTransferDraft(on, { status: 'SCHEDULED', scheduledDate: '2026-03-09' })));
      const cancel = () =>
        ctx.h.uow.run(async (tx) => {
          const current = await tx.transfers.getForUpdate(stored.id);
          await tx.transfers.update(current!.cancel(at(1)));
        });
      const outcomes = await Promise.allSettled([cancel(), cancel()]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: { code: 'transfer-not-cancelable' } });
      expect((await ctx.h.transferQueries.get(stored.id))?.toSnapshot()).toMatchObject({ status: 'CANCELLED', version: 2 });
    });
  });
}
