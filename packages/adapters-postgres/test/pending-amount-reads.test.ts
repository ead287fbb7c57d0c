import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { KnexReceivableAccountQueries } from '../src/repositories/knex-receivable-account-queries';
import { openTestDatabase, type TestDatabase } from '../testing';
import { insertAccountRow } from './support/account-row';
import { readsOf } from './support/reads';

/**
 * An account's stats.pendingAmount costs the same whatever the account holds: GET, each row of the account list
 * and the amount a change to the account answers with read a few rows of its maintained sum, not its receivables.
 */
describe(`reading an account's pending amount (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => db.close());

  /** `n` PENDING receivables on the account in one statement: invoices of 1.00 and, every fourth, a credit note of 0.25. */
  const pending = (customerId: number, accountId: number, n: number) =>
    db.knex.raw(
      `INSERT INTO receivables (customer_id, receivable_account_id, amount_minor, currency_code, receivable_type, status, receivable_date,
         creation_date, modification_date, version)
       SELECT ?, ?, CASE WHEN i % 4 = 0 THEN 25 ELSE 100 END, 'ARS', CASE WHEN i % 4 = 0 THEN 'CREDIT_NOTE' ELSE 'INVOICE' END, 'PENDING',
         '2026-03-01', now(), now(), 1
       FROM generate_series(1, ?) i`,
      [customerId, accountId, n],
    );

  it('reads a bounded number of rows for an account holding thousands of PENDING receivables', async () => {
    const [customer] = await db.knex('customers').insert({ name: 'Pending', creation_date: new Date() }).returning('id');
    const accounts = [
      await insertAccountRow(db.knex, customer.id, 1, { status: 'ACTIVE' }),
      await insertAccountRow(db.knex, customer.id, 2, { status: 'ACTIVE' }),
    ];
    for (const account of accounts) await pending(customer.id, account, 4_000);
    // 3,000 invoices of 100 and 1,000 credit notes of 25.
    const expected = 3_000n * 100n - 1_000n * 25n;

    const { result, read } = await readsOf(new KnexUnitOfWork(db.knex), ['receivables', 'list_counts'], async (bound) => {
      const queries = new KnexReceivableAccountQueries(() => bound.executor());
      const listed = await queries.list({ customerId: customer.id }, { page: 1, count: 20 });
      return [
        (await queries.get(accounts[0]))?.pendingAmountMinor,
        ...listed.items.map((record) => record.pendingAmountMinor),
        await bound.run((tx) => tx.receivableAccounts.pendingAmountMinor(accounts[1])),
      ];
    });
    expect(result).toEqual([expected, expected, expected, expected]);
    // Four reads of at most 8 slots each (and their index entries), and the list's total: summing the receivables read 8,000 at least.
    expect(read).toBeLessThan(100);
  });
});
