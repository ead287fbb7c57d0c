import { Client, RollbackOnlyError, TransactionEndedError, type TransactionScope, type UnitOfWork } from '../../src';
import { aClientDetails, validTaxId } from '../builders';
import { useHarness, type HarnessFactory, type TestDefinition } from './harness';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const taxIds = (page: { items: ReadonlyArray<Client> }) => page.items.map((c) => c.toSnapshot().taxId).sort();

export function unitOfWorkContract(factory: HarnessFactory, itBesideAnOpenTransaction: TestDefinition): void {
  describe('unit of work and outbox', () => {
    const ctx = useHarness(factory);

    it('rolls back every write and event of a transaction that throws', async () => {
      const customerId = await ctx.newCustomer();
      let insertedId = 0;
      await expect(
        ctx.h.uow.run(async (tx) => {
          const { client } = await tx.clients.insertIfAbsent(Client.register(customerId, aClientDetails(), T0));
          insertedId = client.id;
          await tx.outbox.record([{ customerId, type: 'receivable.created', occurredAt: T0, data: { id: 1 } }]);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await ctx.h.clientQueries.get(insertedId)).toBeUndefined();
      expect(await ctx.h.readOutbox(customerId)).toEqual([]);
    });

    it('commits events with the change, with evt_ ids and the data as given', async () => {
      const customerId = await ctx.newCustomer();
      const data = { receivable: { id: 7, amount: 9999999999999.99, nested: { ok: true } } };
      await ctx.h.uow.run((tx) =>
        tx.outbox.record([
          { customerId, type: 'receivable.created', occurredAt: T0, data },
          { customerId, type: 'receivable.paid', occurredAt: T0, data },
        ]),
      );
      const events = await ctx.h.readOutbox(customerId);
      expect(events.map((e) => e.type)).toEqual(['receivable.created', 'receivable.paid']);
      expect(events[0]).toMatchObject({ customerId, occurredAt: T0, data });
      expect(events[0].id).toMatch(/^evt_[A-Za-z0-9]{20,}$/);
      expect(events[0].id).not.toBe(events[1].id);
    });

    it('keeps each event as given, in order, whatever characters its payload holds', async () => {
      const customerId = await ctx.newCustomer();
      const awkward = ['record\u001eseparator', 'unit\u001fseparator', 'quote " and \\ backslash', 'line\nbreak\ttab', 'ñandú 🧾', '\u0001', ''];
      const events = awkward.map((text, i) => ({
        customerId,
        type: i % 2 === 0 ? ('receivable.created' as const) : ('receivable.paid' as const),
        occurredAt: new Date(T0.getTime() + i),
        data: { text, list: [text, i], nested: { [text || 'empty']: text } },
      }));
      await ctx.h.uow.run((tx) => tx.outbox.record(events));
      const stored = await ctx.h.readOutbox(customerId);
      expect(stored.map(({ customerId: c, type, occurredAt, data }) => ({ customerId: c, type, occurredAt, data }))).toEqual(events);
    });

    it("records any number of events in one call (beyond a statement's 65,535 parameters)", async () => {
      const customerId = await ctx.newCustomer();
      const events = Array.from({ length: 14_000 }, (_, i) => ({
        customerId,
        type: 'receivable.settled' as const,
        occurredAt: T0,
        data: { receivable: { id: i } },
      }));
      await ctx.h.uow.run((tx) => tx.outbox.record(events));
      const stored = await ctx.h.readOutbox(customerId);
      expect(stored).toHaveLength(14_000);
      expect(stored[13_999].data).toEqual({ receivable: { id: 13_999 } });
    });

    it('refuses to commit a transaction whose joined work failed, even when the outer work carries on', async () => {
      const customerId = await ctx.newCustomer();
      const before = Client.register(customerId, aClientDetails({ taxId: validTaxId('30', 60000004) }), T0);
      const partial = Client.register(customerId, aClientDetails({ taxId: validTaxId('30', 60000005) }), T0);
      await expect(
        ctx.h.begin(async ({ uow }) => {
          await uow.run((tx) => tx.clients.insertIfAbsent(before));
          await uow
            .run(async (inner) => {
              await inner.clients.insertIfAbsent(partial);
              throw new Error('inner failure');
            })
            .catch(() => 'swallowed');
        }),
      ).rejects.toBeInstanceOf(RollbackOnlyError);
      const listed = await ctx.h.clientQueries.list({ customerId }, { page: 1, count: 20 });
      expect(listed.items).toEqual([]);
    });

    it('undoes only failed isolated work and keeps the outer transaction going', async () => {
      const customerId = await ctx.newCustomer();
      const kept = Client.register(customerId, aClientDetails({ taxId: validTaxId('30', 60000001) }), T0);
      const undone = Client.register(customerId, aClientDetails({ taxId: validTaxId('30', 60000002) }), T0);
      await ctx.h.begin(async ({ uow }) => {
        await uow.run((tx) => tx.clients.insertIfAbsent(kept));
        await expect(
          uow.isolated(() =>
            uow.run(async (inner) => {
              await inner.clients.insertIfAbsent(undone);
              throw new Error('inner failure');
            }),
          ),
        ).rejects.toThrow('inner failure');
      });
      const listed = await ctx.h.clientQueries.list({ customerId }, { page: 1, count: 20 });
      expect(listed.items.map((c) => c.toSnapshot().taxId)).toEqual([kept.taxId]);
    });

    it('fails isolated work whose joined work failed, even when it carried on, and keeps the transaction usable', async () => {
      const customerId = await ctx.newCustomer();
      const kept = Client.register(customerId, aClientDetails({ taxId: validTaxId('30', 60000030) }), T0);
      const undone = Client.register(customerId, aClientDetails({ taxId: validTaxId('30', 60000040) }), T0);
      await ctx.h.begin(async ({ uow }) => {
        await expect(
          uow.isolated(async () => {
            await uow.run((tx) => tx.clients.insertIfAbsent(undone));
            await uow.run(() => Promise.reject(new Error('joined failure'))).catch(() => 'swallowed');
          }),
        ).rejects.toBeInstanceOf(RollbackOnlyError);
        await uow.run((tx) => tx.clients.insertIfAbsent(kept));
      });
      const listed = await ctx.h.clientQueries.list({ customerId }, { page: 1, count: 20 });
      expect(listed.items.map((c) => c.toSnapshot().taxId)).toEqual([kept.taxId]);
    });

    it("lets bound reads see the transaction's uncommitted writes, isolated ones included", async () => {
      const customerId = await ctx.newCustomer();
      const first = Client.register(customerId, aClientDetails({ taxId: validTaxId('30', 60000010) }), T0);
      const second = Client.register(customerId, aClientDetails({ taxId: validTaxId('30', 60000020) }), T0);
      const both = [first.taxId, second.taxId].sort();
      const seen = await ctx.h.begin(async (bound) => {
        await bound.uow.run((tx) => tx.clients.insertIfAbsent(first));
        const inIsolated = await bound.uow.isolated(async () => {
          await bound.uow.run((tx) => tx.clients.insertIfAbsent(second));
          return taxIds(await bound.clientQueries.list({ customerId }, { page: 1, count: 20 }));
        });
        return { inIsolated, afterIsolated: taxIds(await bound.clientQueries.list({ customerId }, { page: 1, count: 20 })) };
      });
      expect(seen).toEqual({ inIsolated: both, afterIsolated: both });
      expect(taxIds(await ctx.h.clientQueries.list({ customerId }, { page: 1, count: 20 }))).toEqual(both);
    });

    itBesideAnOpenTransaction('lets free reads see only what committed while a transaction is open', async () => {
      const customerId = await ctx.newCustomer();
      const draft = Client.register(customerId, aClientDetails({ taxId: validTaxId('30', 60000050) }), T0);
      const freeDuring = await ctx.h.begin(async (bound) => {
        await bound.uow.run((tx) => tx.clients.insertIfAbsent(draft));
        return taxIds(await ctx.h.clientQueries.list({ customerId }, { page: 1, count: 20 }));
      });
      expect(freeDuring).toEqual([]);
      expect(taxIds(await ctx.h.clientQueries.list({ customerId }, { page: 1, count: 20 }))).toEqual([draft.taxId]);
    });

    it('refuses work that outlived its transaction on the bound unit of work, and the free one gives it a transaction of its own', async () => {
      const customerId = await ctx.newCustomer();
      const draft = Client.register(customerId, aClientDetails({ taxId: validTaxId('30', 60000003) }), T0);
      let bound!: UnitOfWork<TransactionScope>;
      await ctx.h.begin(async ({ uow }) => {
        bound = uow;
      });
      await expect(bound.run((tx) => tx.clients.insertIfAbsent(draft))).rejects.toBeInstanceOf(TransactionEndedError);
      const { client } = await ctx.h.uow.run((tx) => tx.clients.insertIfAbsent(draft));
      expect((await ctx.h.clientQueries.get(client.id))?.toSnapshot().taxId).toBe(draft.taxId);
    });

    it('runs what waits for a commit once the transaction committed, never when it rolled back, and at once on a free unit of work', async () => {
      const customerId = await ctx.newCustomer();
      const draft = Client.register(customerId, aClientDetails({ taxId: validTaxId('30', 60000060) }), T0);
      const seen: string[] = [];
      await ctx.h.begin(async ({ uow }) => {
        const { client } = await uow.run((tx) => tx.clients.insertIfAbsent(draft));
        uow.afterCommit(() => {
          void ctx.h.clientQueries.get(client.id).then((found) => seen.push(found ? 'committed, visible' : 'not visible'));
        });
        seen.push('still open');
      });
      await expect(
        ctx.h.begin(async ({ uow }) => {
          uow.afterCommit(() => seen.push('after a rollback'));
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      ctx.h.uow.afterCommit(() => seen.push('free: at once'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(seen[0]).toBe('still open');
      expect(seen.slice(1).sort()).toEqual(['committed, visible', 'free: at once']);
    });

    it('tells work whether its unit of work is bound to an open transaction', async () => {
      expect(ctx.h.uow.inTransaction()).toBe(false);
      expect(await ctx.h.begin((bound) => Promise.resolve(bound.uow.inTransaction()))).toBe(true);
      expect(await ctx.h.uow.run(() => Promise.resolve(ctx.h.uow.inTransaction()))).toBe(false);
    });

    it('builds only the repositories a transaction touches', async () => {
      const built = await ctx.h.uow.run(async (tx) => {
        await tx.receivables.getForUpdate(0);
        return Object.keys(tx);
      });
      expect(built).toEqual(['receivables']);
    });

    it('hands out account ids from one sequence shared by every account kind', async () => {
      const ids = await ctx.h.uow.run(async (tx) => [await tx.currentAccounts.nextId(), await tx.currentAccounts.nextId()]);
      expect(ids[1]).toBeGreaterThan(ids[0]);
    });
  });
}
