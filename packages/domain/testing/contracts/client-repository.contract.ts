import { Client, ConcurrentModificationError } from '../../src';
import { aBranch, aClientDetails, validTaxId } from '../builders';
import { useHarness, type HarnessFactory, type TestDefinition } from './harness';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

export function clientRepositoryContract(factory: HarnessFactory, itRacing: TestDefinition): void {
  describe('client repository', () => {
    const ctx = useHarness(factory);

    it('stores a client and reads back every field', async () => {
      const customerId = await ctx.newCustomer();
      const draft = Client.register(customerId, aClientDetails({ ...aBranch(), email: null }), T0);
      const { client, created } = await ctx.h.uow.run((tx) => tx.clients.insertIfAbsent(draft));
      expect(created).toBe(true);
      const read = await ctx.h.clientQueries.get(client.id);
      expect(read?.toSnapshot()).toEqual({ ...draft, id: client.id });
    });

    it('returns the existing client for the same identity instead of inserting', async () => {
      const customerId = await ctx.newCustomer();
      const first = await ctx.h.uow.run((tx) => tx.clients.insertIfAbsent(Client.register(customerId, aClientDetails(), T0)));
      const again = await ctx.h.uow.run((tx) => tx.clients.insertIfAbsent(Client.register(customerId, aClientDetails({ businessName: 'Other' }), at(1))));
      expect(again.created).toBe(false);
      expect(again.client.toSnapshot()).toEqual(first.client.toSnapshot());
    });

    it('treats another branch, document type or customer as another client', async () => {
      const customerId = await ctx.newCustomer();
      const otherCustomer = await ctx.newCustomer();
      const base = aClientDetails({ taxId: validTaxId('20', 22333444), documentType: 'CUIT' });
      const results = await ctx.h.uow.run(async (tx) => [
        await tx.clients.insertIfAbsent(Client.register(customerId, base, T0)),
        await tx.clients.insertIfAbsent(Client.register(customerId, { ...base, ...aBranch('B1') }, T0)),
        await tx.clients.insertIfAbsent(Client.register(customerId, { ...base, documentType: 'CUIL' }, T0)),
        await tx.clients.insertIfAbsent(Client.register(otherCustomer, base, T0)),
      ]);
      expect(results.map((r) => r.created)).toEqual([true, true, true, true]);
      expect(new Set(results.map((r) => r.client.id)).size).toBe(4);
    });

    itRacing('agrees on one row when many transactions insert the same identity at once', async () => {
      const customerId = await ctx.newCustomer();
      const draft = Client.register(customerId, aClientDetails(), T0);
      const results = await Promise.all(Array.from({ length: 8 }, () => ctx.h.uow.run((tx) => tx.clients.insertIfAbsent(draft))));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.client.id)).size).toBe(1);
    });

    it('saves a changed client and refuses a stale write', async () => {
      const customerId = await ctx.newCustomer();
      const { client } = await ctx.h.uow.run((tx) => tx.clients.insertIfAbsent(Client.register(customerId, aClientDetails(), T0)));
      const edited = client.replaceDetails(aClientDetails({ businessName: 'Renamed SA' }), at(5));
      await ctx.h.uow.run((tx) => tx.clients.update(edited));
      expect((await ctx.h.clientQueries.get(client.id))?.toSnapshot()).toMatchObject({
        businessName: 'Renamed SA',
        modificationDate: at(5),
        version: 2,
      });
      const stale = client.replaceDetails(aClientDetails({ businessName: 'Lost update' }), at(6));
      await expect(ctx.h.uow.run((tx) => tx.clients.update(stale))).rejects.toBeInstanceOf(ConcurrentModificationError);
      expect((await ctx.h.clientQueries.get(client.id))?.toSnapshot().businessName).toBe('Renamed SA');
    });

    it('lists newest first with filters, paging and the total', async () => {
      const customerId = await ctx.newCustomer();
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) {
        const details = aClientDetails({ taxId: validTaxId('30', 70000000 + i * 10), externalId: `x-${i % 2}` });
        const { client } = await ctx.h.uow.run((tx) => tx.clients.insertIfAbsent(Client.register(customerId, details, at(i))));
        ids.push(client.id);
      }
      const all = await ctx.h.clientQueries.list({ customerId }, { page: 1, count: 2 });
      expect(all.total).toBe(5);
      expect(all.items.map((c) => c.id)).toEqual([ids[4], ids[3]]);
      const third = await ctx.h.clientQueries.list({ customerId }, { page: 3, count: 2 });
      expect(third.items.map((c) => c.id)).toEqual([ids[0]]);
      const byExternal = await ctx.h.clientQueries.list({ customerId, externalId: 'x-1' }, { page: 1, count: 20 });
      expect(byExternal.items.map((c) => c.id)).toEqual([ids[3], ids[1]]);
      const byWindow = await ctx.h.clientQueries.list({ customerId, fromDate: at(1), toDate: at(3) }, { page: 1, count: 20 });
      expect(byWindow.items.map((c) => c.id)).toEqual([ids[3], ids[2], ids[1]]);
      const byIds = await ctx.h.clientQueries.list({ customerId, ids: [ids[0], ids[2]] }, { page: 1, count: 20 });
      expect(byIds.total).toBe(2);
      const byTaxId = await ctx.h.clientQueries.list({ customerId, taxId: validTaxId('30', 70000020) }, { page: 1, count: 20 });
      expect(byTaxId.items.map((c) => c.id)).toEqual([ids[2]]);
      const otherCustomer = await ctx.newCustomer();
      expect((await ctx.h.clientQueries.list({ customerId: otherCustomer }, { page: 1, count: 20 })).total).toBe(0);
    });
  });
}
