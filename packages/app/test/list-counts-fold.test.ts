import { foldListCounts } from '@rcs/adapters-postgres';
import { itOnRealServer } from '@rcs/adapters-postgres/testing';
import { countMismatches, pendingAmountMismatches, racingInstances } from './support/list-count-checks';
import { receivableWorld, type Operation } from './support/receivable-world';

/**
 * The nightly fold (COUNT_FOLD_CRON) sums each maintained count's slots into one row and drops the counts at 0,
 * so list_counts holds a row per count, not per writer's slot ever used; every total and amount stays as it was.
 */
describe('folding the maintained list counts', () => {
  const suite = racingInstances();
  const { world, apply } = receivableWorld(() => suite.db);
  const mismatches = (customerId: number) => countMismatches(suite.db, customerId);

  it('folds each count into one row and drops the counts at 0, every total and pending amount unchanged', async () => {
    const { app } = suite.instances[0];
    const w = await world(app);
    for (const op of [0, 1, 2].map((account): Operation => ({
      kind: 'issue',
      account,
      withAssociate: true,
      overdue: false,
      type: 'DEBT',
      cents: 500,
      parent: 0,
    })))
      await apply(app, w, op);
    await apply(app, w, { kind: 'status', receivable: 0, status: 'PAID' });
    const rowsOf = () => suite.db.knex('list_counts').where({ customer_id: w.customerId });
    // What writers on other connections leave: the account's PENDING count over three slots, and a count back at 0.
    const pending = { list: 'receivables', customer_id: w.customerId, scope: 'account', scope_id: w.accounts[1].id, status: 'PENDING' };
    const expired = { ...pending, status: 'EXPIRED' };
    await suite.db
      .knex('list_counts')
      .insert([
        { ...pending, slot: 5, n: 2, amount_minor: 1_000 },
        { ...pending, slot: 6, n: -2, amount_minor: -1_000 },
        { ...expired, slot: 3, n: 1, amount_minor: 7 },
        { ...expired, slot: 4, n: -1, amount_minor: -7 },
      ])
      .onConflict(['list', 'customer_id', 'scope', 'scope_id', 'status', 'slot'])
      .merge({
        n: suite.db.knex.raw('list_counts.n + excluded.n'),
        amount_minor: suite.db.knex.raw('list_counts.amount_minor + excluded.amount_minor'),
      });
    // What a fold committed just after a webhook's deletion removed its counts would leave: a count of no webhook.
    const orphan = { list: 'webhook_deliveries', customer_id: w.customerId, scope: 'webhook', scope_id: 2 ** 40, status: 'FAILED', slot: 0, n: 3 };
    await suite.db.knex('list_counts').insert(orphan);
    const groups = Number((await rowsOf().countDistinct({ n: suite.db.knex.raw('(list, scope, scope_id, status)') }))[0].n);

    const folded = await foldListCounts(suite.db.knex, { chunk: 3 });
    // The next run reads only the groups written since: none.
    expect(await foldListCounts(suite.db.knex, { chunk: 3 })).toEqual({ groups: 0, folded: 0, removed: 0, skipped: 0 });

    expect(folded).toMatchObject({ folded: expect.any(Number), skipped: 0 });
    expect(folded.folded).toBeGreaterThanOrEqual(4);
    expect(await mismatches(w.customerId)).toEqual([]);
    expect(await pendingAmountMismatches(suite.db, app, w.customerId)).toEqual([]);
    const after = await rowsOf().select('list', 'scope', 'scope_id', 'status', 'slot', 'n', 'amount_minor');
    expect(after.filter((r) => Number(r.slot) !== 0 || (Number(r.n) === 0 && Number(r.amount_minor) === 0))).toEqual([]);
    expect(after.some((r) => r.status === 'EXPIRED' || r.list === 'webhook_deliveries')).toBe(false);
    expect(after.length).toBeLessThan(groups);
    expect(after.find((r) => r.scope === 'account' && Number(r.scope_id) === w.accounts[1].id && r.status === 'PENDING')).toMatchObject({
      n: '1',
      amount_minor: '500',
    });

    // That count taken to 0 by a writer's slot since: the next fold finds it by that slot, and it goes.
    await suite.db.knex('list_counts').insert({ ...pending, slot: 2, n: -1, amount_minor: -500 });
    expect(await foldListCounts(suite.db.knex, { chunk: 3 })).toEqual({ groups: 1, folded: 1, removed: 1, skipped: 0 });
    expect(await rowsOf().where({ scope: 'account', scope_id: w.accounts[1].id, status: 'PENDING' })).toEqual([]);
  });

  itOnRealServer('a count held by a writer needs a second connection; PGlite has one')(
    'leaves only the count a writer holds to the next fold, folding every other one around it',
    async () => {
      const { app } = suite.instances[0];
      const w = await world(app);
      const rowsOf = () => suite.db.knex('list_counts').where({ customer_id: w.customerId });
      const slots = w.accounts.flatMap((account) =>
        [1, 2].map((slot) => ({
          list: 'receivables',
          customer_id: w.customerId,
          scope: 'account',
          scope_id: account.id,
          status: 'PAID',
          slot,
          n: slot === 1 ? 3 : -1,
          amount_minor: 0,
        })),
      );
      await suite.db.knex('list_counts').insert(slots);
      const held = { ...slots[2], slot: 1 };
      const writer = await suite.db.knex.transaction();
      try {
        await writer('list_counts')
          .where({ list: held.list, customer_id: held.customer_id, scope: held.scope, scope_id: held.scope_id, status: 'PAID', slot: 1 })
          .forUpdate();
        const folded = await foldListCounts(suite.db.knex, { chunk: 4, lockWaitMs: 20 });
        expect(folded.skipped).toBe(1);
      } finally {
        await writer.rollback();
      }
      const paid = await rowsOf().where({ scope: 'account', status: 'PAID' }).select('scope_id', 'slot', 'n');
      const byAccount = (id: number) => paid.filter((r) => Number(r.scope_id) === id).map((r) => [Number(r.slot), Number(r.n)]);
      expect(w.accounts.map((a) => byAccount(a.id))).toEqual([
        [[0, 2]],
        [
          [1, 3],
          [2, -1],
        ],
        [[0, 2]],
      ]);
      await suite.db.knex('list_counts').where({ customer_id: w.customerId, scope: 'account', status: 'PAID' }).delete();
    },
  );
});
