import fc from 'fast-check';
import { itOnRealServer } from '@rcs/adapters-postgres/testing';
import { isPositive, Money, type Application, type ReceivableStatus, type ReceivableType } from '@rcs/domain';
import { foldListCounts } from '@rcs/adapters-postgres';
import { assertAfterRandomMix, collectFive, countMismatches, pendingAmountMismatches, racingInstances } from './support/list-count-checks';

/**
 * The counts that answer X-Total-Count for the most used list filters, and the receivables' signed amounts beside
 * them that answer an account's stats.pendingAmount, are kept by triggers in the writers' transactions. Whatever
 * mix of writes runs, one at a time or racing, every count equals count(*) of its rows and every amount their
 * signed sum, and the lists and accounts answer them.
 */
describe('maintained list counts', () => {
  const suite = racingInstances();

  interface World {
    readonly customerId: number;
    readonly accounts: ReadonlyArray<{ id: number; associateId?: number }>;
    readonly receivables: number[];
  }

  const now = () => new Date();
  const party = (table: 'clients' | 'associates', customerId: number, n: number) => {
    const taxId = String(20_000_000_000 + n).padStart(11, '0');
    const common = { customer_id: customerId, tax_id: taxId, creation_date: now(), modification_date: now(), version: 1 };
    const row =
      table === 'clients'
        ? { ...common, business_name: `Payer ${n}`, document_type: 'CUIT' }
        : { ...common, type: 'COLLECTOR', name: 'A', last_name: `B${n}`, document_number: String(n), email: 'a@b.c', phone: '+541100000000', status: 'ACTIVE' };
    return suite.db
      .knex(table)
      .insert(row)
      .returning('id')
      .then(([inserted]) => Number(inserted.id));
  };

  /** A customer with three ACTIVE accounts: client only, client and associate, and a second client's with no associate yet. */
  async function world(app: Application): Promise<World> {
    const { customer } = await app.customers.create.execute({ name: `counts-${process.pid}-${Date.now()}-${Math.random()}` });
    const customerId = customer.id;
    const [c1, c2, a1] = [await party('clients', customerId, 1), await party('clients', customerId, 2), await party('associates', customerId, 3)];
    const owners = [{ clientId: c1 }, { clientId: c1, associateId: a1 }, { clientId: c2 }];
    const accounts = [];
    for (const owner of owners) {
      const account = await app.receivableAccounts.open.execute({ customerId, ...owner });
      await suite.db
        .knex('receivable_accounts')
        .where({ id: account.id })
        .update({ status: 'ACTIVE', cvu: `00000449${String(account.id).padStart(14, '0')}`, next_attempt_at: null });
      accounts.push({ id: account.id, ...(owner.associateId ? { associateId: owner.associateId } : {}) });
    }
    return { customerId, accounts, receivables: [] };
  }

  type Operation =
    | { kind: 'issue'; account: number; withAssociate: boolean; overdue: boolean; type: ReceivableType; cents: number; parent: number }
    | { kind: 'status'; receivable: number; status: ReceivableStatus }
    | { kind: 'edit'; receivable: number; cents: number }
    | { kind: 'collect'; account: number }
    | { kind: 'settle' }
    | { kind: 'expire' }
    | { kind: 'disable-account'; account: number }
    | { kind: 'activate-account'; account: number }
    | { kind: 'delete'; receivable: number }
    | { kind: 'fold' };

  const operation: fc.Arbitrary<Operation> = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('issue' as const),
        account: fc.nat(2),
        withAssociate: fc.boolean(),
        overdue: fc.boolean(),
        // Both signs: invoices and debts add to an account's pending amount, the rest (children of one) subtract.
        type: fc.constantFrom<ReceivableType>('INVOICE', 'DEBT', 'CREDIT_NOTE', 'RETENTION', 'ADJUSTMENT'),
        cents: fc.integer({ min: 1, max: 100_000 }),
        parent: fc.nat(),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('status' as const),
        receivable: fc.nat(),
        status: fc.constantFrom<ReceivableStatus>('PAID', 'PENDING', 'DISABLED'),
      }),
    },
    fc.record({ kind: fc.constant('edit' as const), receivable: fc.nat(), cents: fc.integer({ min: 1, max: 100_000 }) }),
    fc.record({ kind: fc.constant('collect' as const), account: fc.nat(2) }),
    fc.record({ kind: fc.constant('settle' as const) }),
    fc.record({ kind: fc.constant('expire' as const) }),
    fc.record({ kind: fc.constant('disable-account' as const), account: fc.nat(2) }),
    fc.record({ kind: fc.constant('activate-account' as const), account: fc.nat(2) }),
    fc.record({ kind: fc.constant('delete' as const), receivable: fc.nat() }),
    fc.record({ kind: fc.constant('fold' as const) }),
  );

  /** Runs one operation; refusals (a status move the table forbids, a race lost) are outcomes like any other. */
  async function apply(app: Application, w: World, op: Operation): Promise<void> {
    const { customerId } = w;
    const pick = (n: number) => w.receivables[n % w.receivables.length];
    switch (op.kind) {
      case 'issue': {
        // A negative type hangs from a receivable of the account it is issued on (refused past the parent's amount).
        const parent =
          isPositive(op.type) || w.receivables.length === 0 ? undefined : await app.receivables.get.execute({ customerId, receivableId: pick(op.parent) });
        const account = parent ? w.accounts.find((a) => a.id === parent.toSnapshot().receivableAccountId)! : w.accounts[op.account];
        const receivable = await app.receivables.issue.execute({
          customerId,
          receivableAccountId: account.id,
          amount: Money.ofMinor(BigInt(op.cents)),
          currencyCode: 'ARS',
          receivableType: op.type,
          ...(parent ? { parentReceivableId: parent.id } : {}),
          ...(op.withAssociate && account.associateId ? { associateId: account.associateId } : {}),
          ...(op.overdue ? { dueDate: '2020-01-01' } : {}),
        });
        w.receivables.push(receivable.id);
        return;
      }
      case 'edit':
        if (w.receivables.length > 0)
          await app.receivables.edit.execute({ customerId, receivableId: pick(op.receivable), edits: { amountMinor: BigInt(op.cents) } });
        return;
      case 'status':
        if (w.receivables.length > 0) await app.receivables.changeStatus.execute({ customerId, receivableId: pick(op.receivable), status: op.status });
        return;
      case 'collect':
        await collectFive(app, customerId, w.accounts[op.account].id);
        return;
      case 'settle':
        await app.settlements.run.execute({ customerId });
        return;
      case 'expire':
        await app.receivables.expire.execute({ customerId });
        return;
      case 'disable-account':
        await app.receivableAccounts.disable.execute({ customerId, accountId: w.accounts[op.account].id });
        return;
      case 'activate-account':
        await app.receivableAccounts.activate.execute({ customerId, accountId: w.accounts[op.account].id });
        return;
      case 'delete':
        // No operation deletes a receivable; a purge in SQL would, and the counts follow it too.
        if (w.receivables.length > 0)
          await suite.db
            .knex('receivables')
            .where({ id: pick(op.receivable) })
            .whereNotExists(suite.db.knex('receivables as child').whereRaw('child.parent_receivable_id = receivables.id'))
            .delete();
        return;
      case 'fold':
        // Chunks of a few groups, so a fold meets the writers racing it on many of its chunks.
        await foldListCounts(suite.db.knex, { chunk: 7 });
        return;
    }
  }

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
    const wrong = [];
    for (const scope of scopes) {
      for (const status of [undefined, 'PENDING', 'PAID', 'SETTLED', 'EXPIRED', 'DISABLED'] as const) {
        const filter = { customerId, ...scope, ...(status ? { status } : {}) };
        const listed = (await app.receivables.list.execute({ filter, page: { page: 1, count: 1 } })).total;
        const where = Object.fromEntries(
          Object.entries(filter).map(([k, v]) => [k === 'customerId' ? 'customer_id' : k === 'status' ? 'status' : column[k as keyof typeof column], v]),
        );
        const counted = Number((await suite.db.knex('receivables').where(where).count({ n: '*' }))[0].n);
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
