import type { Knex } from 'knex';
import { itOnRealServer } from '@rcs/adapters-postgres/testing';
import { Money, type Application } from '@rcs/domain';
import { assertAfterRandomMix, countMismatches, pendingAmountMismatches, racingInstances } from './support/list-count-checks';
import { DUE_DAYS, operation, receivableWorld, type Operation, type World } from './support/receivable-world';

/**
 * The counts that answer X-Total-Count for the most used list filters, and the receivables' signed amounts beside
 * them that answer an account's stats.pendingAmount, are kept by triggers in the writers' transactions. Whatever
 * mix of writes runs, one at a time or racing, every count equals count(*) of its rows and every amount their
 * signed sum, and the lists and accounts answer them.
 */
describe('maintained list counts', () => {
  const suite = racingInstances();
  const { world, apply } = receivableWorld(() => suite.db);

  const mismatches = (customerId: number) => countMismatches(suite.db, customerId);

  /** The lists' X-Total-Count for every maintained filter, against count(*). */
  async function listTotals(app: Application, w: World) {
    const { customerId } = w;
    const clients = await suite.db.knex('receivable_accounts').where({ customer_id: customerId }).distinct('client_id').pluck('client_id');
    const associates = w.accounts.flatMap((a) => (a.associateId ? [a.associateId] : []));
    const scopes = [
      {},
      ...w.accounts.map((a) => ({ receivableAccountId: a.id })),
      ...clients.map((id) => ({ clientId: Number(id) })),
      ...associates.map((id) => ({ associateId: id })),
    ];
    const column = { receivableAccountId: 'receivable_account_id', clientId: 'client_id', associateId: 'associate_id' } as const;
    // The whole customer's date windows, summed from due days and creation hours: every receivable of the run was
    // created within the current hour or two, so windows of whole hours, of their edges and of both.
    const [hour, started] = [3_600_000, w.started.getTime()];
    const windows: Array<[filter: object, rows: (q: Knex.QueryBuilder) => void]> = [
      [{ fromDueDate: DUE_DAYS[0], toDueDate: DUE_DAYS[0] }, (q) => q.where('due_date', DUE_DAYS[0])],
      [{ fromDueDate: '2025-01-01' }, (q) => q.where('due_date', '>=', '2025-01-01')],
      [{ toDueDate: '2030-12-31' }, (q) => q.where('due_date', '<=', '2030-12-31')],
      [{ fromDate: new Date(started - 2 * hour), toDate: new Date(started + 2 * hour) }, () => {}],
      [{ fromDate: w.started }, (q) => q.where('creation_date', '>=', w.started)],
      [{ toDate: new Date(Math.ceil(started / hour) * hour) }, (q) => q.where('creation_date', '<=', new Date(Math.ceil(started / hour) * hour))],
    ];
    const cases = [...scopes.map((scope): [object, (q: Knex.QueryBuilder) => void] => [scope, () => {}]), ...windows];
    const wrong = [];
    for (const [narrowing, rows] of cases) {
      for (const status of [undefined, 'PENDING', 'PAID', 'SETTLED', 'EXPIRED', 'DISABLED'] as const) {
        const filter = { customerId, ...narrowing, ...(status ? { status } : {}) };
        const listed = (await app.receivables.list.execute({ filter, page: { page: 1, count: 1 } })).total;
        const where = Object.fromEntries(
          Object.entries({ customerId, ...(status ? { status } : {}), ...(narrowing as Record<string, unknown>) })
            .filter(([k]) => k === 'customerId' || k === 'status' || k in column)
            .map(([k, v]) => [k === 'customerId' ? 'customer_id' : k === 'status' ? 'status' : column[k as keyof typeof column], v]),
        );
        const query = suite.db.knex('receivables').where(where);
        rows(query);
        const counted = Number((await query.count({ n: '*' }))[0].n);
        if (listed !== counted) wrong.push({ filter, listed, counted });
      }
    }
    return wrong;
  }

  it('keeps every count equal to count(*) through a random mix of writes, some of them racing', async () => {
    await assertAfterRandomMix(suite.instances, operation, {
      world,
      apply,
      check: async (w) => {
        expect(await mismatches(w.customerId)).toEqual([]);
        expect(await listTotals(suite.instances[0].app, w)).toEqual([]);
        expect(await pendingAmountMismatches(suite.db, suite.instances[0].app, w.customerId)).toEqual([]);
      },
    });
  }, 240_000);

  itOnRealServer('two instances racing need two connections; PGlite has one')(
    "keeps an account's pending amount exact while two instances issue, pay, edit and settle on it at once",
    async () => {
      const w = await world(suite.instances[0].app);
      const invoices = Array.from({ length: 12 }, (_, i): Operation => ({
        kind: 'issue',
        account: 0,
        withAssociate: false,
        overdue: false,
        type: i % 2 ? 'INVOICE' : 'DEBT',
        cents: 10_000 + i,
        parent: 0,
      }));
      for (const op of invoices.slice(0, 4)) await apply(suite.instances[0].app, w, op);
      const racing: Operation[] = [
        ...invoices.slice(4),
        ...[0, 1, 2, 3].map((parent): Operation => ({
          kind: 'issue',
          account: 0,
          withAssociate: false,
          overdue: false,
          type: 'CREDIT_NOTE',
          cents: 99,
          parent,
        })),
        ...[0, 1].map((receivable): Operation => ({ kind: 'status', receivable, status: 'PAID' })),
        { kind: 'edit', receivable: 2, cents: 20_000 },
        { kind: 'collect', account: 0 },
        { kind: 'settle' },
      ];
      await Promise.allSettled(racing.map((op, i) => apply(suite.instances[i % 2].app, w, op)));
      expect(await mismatches(w.customerId)).toEqual([]);
      expect(await pendingAmountMismatches(suite.db, suite.instances[0].app, w.customerId)).toEqual([]);
    },
  );

  it('answers the account lists by customer, client and associate from the counts, with the status they filter on', async () => {
    const { app } = suite.instances[0];
    const w = await world(app);
    await app.receivableAccounts.disable.execute({ customerId: w.customerId, accountId: w.accounts[1].id });
    const total = async (filter: object) =>
      (await app.receivableAccounts.list.execute({ filter: { customerId: w.customerId, ...filter }, page: { page: 1, count: 1 } })).total;
    expect(await total({ status: 'ACTIVE' })).toBe(2);
    expect(await total({ status: 'DISABLED', associateId: w.accounts[1].associateId })).toBe(1);
    expect(await total({ status: 'ACTIVE', associateId: w.accounts[1].associateId })).toBe(0);
    expect(await total({})).toBe(3);
    expect(await mismatches(w.customerId)).toEqual([]);
  });

  it('counts a set-based settlement of many receivables in one grouped change', async () => {
    const { app } = suite.instances[0];
    const w = await world(app);
    const account = w.accounts[0].id;
    const item = {
      customerId: w.customerId,
      receivableAccountId: account,
      amount: Money.parse('1.00'),
      currencyCode: 'ARS',
      receivableType: 'INVOICE' as const,
    };
    const issued = await app.receivables.issueBatch.execute({ items: Array.from({ length: 60 }, () => item) });
    for (const outcome of issued)
      if ('value' in outcome) await app.receivables.changeStatus.execute({ customerId: w.customerId, receivableId: outcome.value.id, status: 'PAID' });
    await apply(app, w, { kind: 'collect', account: 0 });
    await app.settlements.run.execute({ customerId: w.customerId });
    const settled = await app.receivables.list.execute({
      filter: { customerId: w.customerId, receivableAccountId: account, status: 'SETTLED' },
      page: { page: 1, count: 1 },
    });
    expect(settled.total).toBe(60);
    expect(await mismatches(w.customerId)).toEqual([]);
  });
});
