import { Client, DEFAULT_CUSTOMER_SETTINGS, openCurrentAccounts, ReceivableAccount, RECEIVABLE_STATUSES, SETTLEMENT_RULE } from '@rcs/domain';
import { aClientDetails, aReceivableDraft, FixedClock } from '@rcs/domain/testing';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { openTestDatabase, type TestDatabase } from '../testing';

const T0 = new Date('2026-04-01T10:00:00.000Z');

/** The settlement SQL executes the domain's rule set-based; which statuses settle, and into what, is the domain's. */
describe(`settlement statements (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => db.close());

  it('settle the statuses the domain rule names into the status it names, and name no receivable status of their own', async () => {
    const uow = new KnexUnitOfWork(db.knex);
    await uow.run(async (tx) => {
      const { customer } = await tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'settlement rule', creationDate: T0 });
      await openCurrentAccounts(tx, customer.id, new FixedClock(T0));
      const { client } = await tx.clients.insertIfAbsent(Client.register(customer.id, aClientDetails(), T0));
      const opened = ReceivableAccount.open(
        { id: await tx.receivableAccounts.nextId(), customerId: customer.id, owner: { clientId: client.id, associateId: null }, currencyCode: 'ARS' },
        T0,
      );
      const { account } = await tx.receivableAccounts.insertIfAbsent(opened);
      await tx.receivableAccounts.update(account.assignCvu('0000044100000000000001', 'rule.cta', T0));
      await tx.receivables.insert(aReceivableDraft({ customerId: customer.id, accountId: account.id, clientId: client.id }, { status: 'PAID' }));
      await tx.ledger.append({
        customerId: customer.id,
        accountId: account.id,
        accountKind: 'RECEIVABLE',
        movementType: 'CREDIT',
        operationType: 'DEPOSIT',
        subtype: null,
        amountMinor: 10_000n,
        currencyCode: 'ARS',
        counterParty: null,
        settlementId: null,
        providerReference: null,
        transferId: null,
        movementDate: T0,
      });
    });
    const statements: { sql: string; bindings: readonly unknown[] }[] = [];
    const record = (query: { sql: string; bindings: readonly unknown[] }) => statements.push(query);
    db.knex.on('query', record);
    const settled = await uow.run(async (tx) => {
      const settlements = await tx.settlements.settle(T0, await tx.settlements.lockDue({ limit: 10 }));
      const receivables = [];
      for await (const batch of tx.settlements.settledReceivables(settlements, 10)) receivables.push(...batch);
      await tx.settlements.credit(settlements, T0);
      return receivables;
    });
    db.knex.off('query', record);

    expect(settled.map((r) => r.status)).toEqual([SETTLEMENT_RULE.to]);
    const update = statements.find((s) => /^\s*UPDATE receivables\b/.test(s.sql));
    expect(update?.bindings).toEqual(expect.arrayContaining([SETTLEMENT_RULE.to, SETTLEMENT_RULE.from]));
    for (const status of RECEIVABLE_STATUSES) expect(update?.sql).not.toContain(`'${status}'`);
  });
});
