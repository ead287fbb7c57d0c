import { DEFAULT_CUSTOMER_SETTINGS } from '@rcs/domain';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { insertAccountRow } from './support/account-row';
import { readsOf } from './support/reads';
import { openTestDatabase, type TestDatabase } from '../testing';

const TODAY = '2026-03-10';

/**
 * The expiry job's pick reads what it takes, however much history the receivables hold: settled and paid ones,
 * children that never expire, and other customers' queues cost it nothing.
 */
describe(`the expiry queue's cost (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;

  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: 2 });
    uow = new KnexUnitOfWork(db.knex);
  });
  afterAll(async () => db.close());

  const aCustomer = async (name: string) => {
    const { customer } = await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name, creationDate: new Date() }));
    return { customerId: customer.id, accountId: await insertAccountRow(db.knex, customer.id, customer.id, { status: 'ACTIVE' }) };
  };

  /** `count` receivables of the account, straight into the table: `type` and `status`, due a day apart before TODAY. */
  const seed = (owner: { customerId: number; accountId: number }, count: number, type: string, status: string) =>
    db.knex.raw(
      `INSERT INTO receivables (customer_id, receivable_account_id, amount_minor, currency_code, receivable_type, status, due_date,
         receivable_date, creation_date, modification_date, version)
       SELECT ?, ?, 100, 'ARS', ?, ?, DATE '2026-03-09' - (n % 300), DATE '2025-01-01', now(), now(), 1 FROM generate_series(1, ?) n`,
      [owner.customerId, owner.accountId, type, status, count],
    );

  it('reads the batch it takes, not the settled history, the children that never expire or the other queues', async () => {
    const mine = await aCustomer('expiring');
    const theirs = await aCustomer('expiring elsewhere');
    await seed(mine, 4_000, 'INVOICE', 'SETTLED');
    await seed(mine, 2_000, 'CREDIT_NOTE', 'PENDING');
    await seed(theirs, 2_000, 'INVOICE', 'PENDING');
    await seed(mine, 30, 'DEBT', 'PENDING');
    await db.knex.raw('ANALYZE receivables');

    const batch = await readsOf(uow, ['receivables'], (bound) => bound.run((tx) => tx.receivables.dueForExpiry(TODAY, 20, mine.customerId)));
    expect(batch.result).toHaveLength(20);
    expect(batch.result.every((r) => r.toSnapshot().customerId === mine.customerId && r.toSnapshot().receivableType === 'DEBT')).toBe(true);
    // An index entry and a row for each taken, and the probe's end; the old pick read thousands.
    expect(batch.read).toBeLessThan(60);

    // The daily job's pick, every customer's: a batch of 50 from the two queues, as cheaply.
    const daily = await readsOf(uow, ['receivables'], (bound) => bound.run((tx) => tx.receivables.dueForExpiry(TODAY, 50)));
    expect(daily.result).toHaveLength(50);
    expect(daily.read).toBeLessThan(150);
  });
});
