import type { Page, PageRequest, Receivable, ReceivableListFilter } from '../../src';
import { aReceivableDraft } from '../builders';
import { anAccount } from './receivable-repository.contract';
import { useHarness, type HarnessFactory } from './harness';

const T0 = new Date('2026-03-01T10:00:00.000Z');

/** Lists page by number and by the key of the next page alike, in every adapter; receivables stand for every list. */
export function pagingContract(factory: HarnessFactory): void {
  describe('list paging', () => {
    const ctx = useHarness(factory);

    /** Seven receivables, three of them created at the same instant (id breaks the tie), four PAID. */
    const setUp = async () => {
      const customerId = await ctx.newCustomer();
      const { account, client } = await ctx.h.uow.run((tx) => anAccount(tx, customerId));
      const base = { customerId, accountId: account.id, clientId: client.id };
      const minutes = [1, 2, 2, 2, 3, 4, 5];
      const rows = await ctx.h.uow.run(async (tx) => {
        const inserted: Receivable[] = [];
        for (const [i, m] of minutes.entries()) {
          const draft = aReceivableDraft(base, { creationDate: new Date(T0.getTime() + m * 60_000), receivableType: i === 3 ? 'DEBT' : 'INVOICE' });
          const receivable = await tx.receivables.insert(draft);
          inserted.push(i % 2 === 0 ? receivable.markPaid(T0) : receivable);
          if (i % 2 === 0) await tx.receivables.update(inserted[i]);
        }
        return inserted;
      });
      const newestFirst = rows.map((r) => r.toSnapshot()).sort((a, b) => b.creationDate.getTime() - a.creationDate.getTime() || b.id - a.id);
      return { customerId, accountId: account.id, newestFirst };
    };
    const list = (filter: ReceivableListFilter, page: PageRequest): Promise<Page<Receivable>> => ctx.h.receivableQueries.list(filter, page);
    const ids = (page: Page<Receivable>) => page.items.map((r) => r.id);

    it('walks a list by the key of each next page: every item once, newest first, ties by id, no key on the last page', async () => {
      const { customerId, accountId, newestFirst } = await setUp();
      for (const filter of [{ customerId }, { customerId, receivableAccountId: accountId }, { customerId, status: 'PAID' as const }]) {
        const expected = newestFirst.filter((r) => filter.status === undefined || r.status === filter.status).map((r) => r.id);
        const walked: number[] = [];
        let page = await list(filter, { page: 1, count: 3 });
        for (;;) {
          expect(page.total).toBe(expected.length);
          walked.push(...ids(page));
          if (page.next === undefined) break;
          page = await list(filter, { page: 1, count: 3, after: page.next });
        }
        expect(walked).toEqual(expected);
      }
    });

    it('answers each page by number with the items the walk gives, the pages past the middle read from the end', async () => {
      const { customerId, accountId, newestFirst } = await setUp();
      // INVOICE's total is every type's less the others' (the other types' are counted), within a scope and a status
      // too; paging is the same.
      for (const filter of [
        { customerId },
        { customerId, receivableType: 'INVOICE' as const },
        { customerId, receivableAccountId: accountId, receivableType: 'INVOICE' as const },
        { customerId, receivableAccountId: accountId, receivableType: 'INVOICE' as const, status: 'PAID' as const },
      ]) {
        const matching = newestFirst
          .filter(
            (r) => (filter.receivableType === undefined || r.receivableType === filter.receivableType) && (!('status' in filter) || r.status === filter.status),
          )
          .map((r) => r.id);
        for (let n = 1; n <= Math.ceil(matching.length / 2); n++) {
          const page = await list(filter, { page: n, count: 2 });
          expect({ n, ids: ids(page), total: page.total, more: page.next !== undefined }).toEqual({
            n,
            ids: matching.slice((n - 1) * 2, n * 2),
            total: matching.length,
            more: n * 2 < matching.length,
          });
        }
        const past = await list(filter, { page: 9, count: 2 });
        expect([ids(past), past.total, past.next]).toEqual([[], matching.length, undefined]);
      }
    });

    it('answers pages of the common sizes by number and by key alike, the last one partial, with and without a status', async () => {
      const customerId = await ctx.newCustomer();
      const { account, client } = await ctx.h.uow.run((tx) => anAccount(tx, customerId));
      const base = { customerId, accountId: account.id, clientId: client.id };
      const rows = await ctx.h.uow.run(async (tx) => {
        const inserted: Receivable[] = [];
        for (let i = 0; i < 25; i++) {
          const receivable = await tx.receivables.insert(aReceivableDraft(base, { creationDate: new Date(T0.getTime() + (i % 9) * 60_000) }));
          if (i % 4 === 0) await tx.receivables.update(receivable.markPaid(T0));
          inserted.push(i % 4 === 0 ? receivable.markPaid(T0) : receivable);
        }
        return inserted;
      });
      const newestFirst = rows.map((r) => r.toSnapshot()).sort((a, b) => b.creationDate.getTime() - a.creationDate.getTime() || b.id - a.id);
      for (const filter of [{ customerId }, { customerId, receivableAccountId: account.id }, { customerId, status: 'PENDING' as const }]) {
        const expected = newestFirst.filter((r) => filter.status === undefined || r.status === filter.status).map((r) => r.id);
        for (const count of [10, 20]) {
          const pages = Math.ceil(expected.length / count);
          for (let n = 1; n <= pages + 1; n++) {
            const page = await list(filter, { page: n, count });
            expect({ filter, count, n, ids: ids(page), total: page.total, more: page.next !== undefined }).toEqual({
              filter,
              count,
              n,
              ids: expected.slice((n - 1) * count, n * count),
              total: expected.length,
              more: n * count < expected.length,
            });
          }
          const walked: number[] = [];
          for (let page = await list(filter, { page: 1, count }); ; page = await list(filter, { page: 1, count, after: page.next })) {
            walked.push(...ids(page));
            if (page.next === undefined) break;
          }
          expect({ filter, count, walked }).toEqual({ filter, count, walked: expected });
        }
      }
    });

    it('pages a due-date or amount range alike, whether it matches few of the rows (read by its index) or most (walked)', async () => {
      const customerId = await ctx.newCustomer();
      const { account, client } = await ctx.h.uow.run((tx) => anAccount(tx, customerId));
      const base = { customerId, accountId: account.id, clientId: client.id };
      const dueOn = (i: number) => `2026-04-${String(i + 1).padStart(2, '0')}`;
      const rows = await ctx.h.uow.run(async (tx) => {
        const inserted: Receivable[] = [];
        for (let i = 0; i < 21; i++) {
          const draft = aReceivableDraft(base, {
            creationDate: new Date(T0.getTime() + (i % 7) * 60_000),
            dueDate: dueOn(i),
            amountMinor: BigInt((i + 1) * 100),
          });
          const receivable = await tx.receivables.insert(draft);
          if (i % 3 === 0) await tx.receivables.update(receivable.markPaid(T0));
          inserted.push(receivable);
        }
        return inserted;
      });
      const newestFirst = rows.map((r) => r.toSnapshot()).sort((a, b) => b.creationDate.getTime() - a.creationDate.getTime() || b.id - a.id);
      const cases: Array<[Partial<ReceivableListFilter>, (r: (typeof newestFirst)[number]) => boolean]> = [
        [{ fromDueDate: dueOn(5), toDueDate: dueOn(5) }, (r) => r.dueDate === dueOn(5)],
        [{ fromDueDate: dueOn(2) }, (r) => r.dueDate! >= dueOn(2)],
        [{ minAmountMinor: 300n, maxAmountMinor: 1200n }, (r) => r.amountMinor >= 300n && r.amountMinor <= 1200n],
      ];
      for (const [range, matches] of cases) {
        const filter = { customerId, ...range };
        const expected = newestFirst.filter(matches).map((r) => r.id);
        const walked: number[] = [];
        for (let page = await list(filter, { page: 1, count: 3 }); ; page = await list(filter, { page: 1, count: 3, after: page.next })) {
          expect(page.total).toBe(expected.length);
          walked.push(...ids(page));
          if (page.next === undefined) break;
        }
        expect({ range, walked }).toEqual({ range, walked: expected });
        for (let n = 1; n <= Math.ceil(expected.length / 2); n++) {
          expect({ range, n, ids: ids(await list(filter, { page: n, count: 2 })) }).toEqual({ range, n, ids: expected.slice((n - 1) * 2, n * 2) });
        }
      }
    });
  });
}
