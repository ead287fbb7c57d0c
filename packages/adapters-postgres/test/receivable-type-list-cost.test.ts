import { DEFAULT_CUSTOMER_SETTINGS, RECEIVABLE_STATUSES } from '@rcs/domain';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { KnexReceivableQueries } from '../src/repositories/knex-receivable-queries';
import { insertAccountRow } from './support/account-row';
import { readsOf } from './support/reads';
import { openTestDatabase, type TestDatabase } from '../testing';

/** A list by a type other than INVOICE reads that type's receivables, not every receivable of the customer. */
describe(`the receivables list by type (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;

  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: 2 });
    uow = new KnexUnitOfWork(db.knex);
  });
  afterAll(async () => db.close());

  it('reads a page of credit notes and its total from their own index, with or without a status', async () => {
    const { customer } = await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'by type', creationDate: new Date() }));
    const accountId = await insertAccountRow(db.knex, customer.id, customer.id, { status: 'ACTIVE' });
    // 4,000 receivables a second apart, statuses in turn; 1 in 100 a credit note.
    await db.knex.raw(
      `INSERT INTO receivables (customer_id, receivable_account_id, amount_minor, currency_code, receivable_type, status, receivable_date,
         creation_date, modification_date, version)
       SELECT ?, ?, 100, 'ARS', CASE WHEN n % 100 = 0 THEN 'CREDIT_NOTE' ELSE 'INVOICE' END, (?::text[])[1 + n % 5], DATE '2026-01-01',
         now() - n * interval '1 second', now(), 1
       FROM generate_series(1, 4000) n`,
      [customer.id, accountId, [...RECEIVABLE_STATUSES]],
    );
    await db.knex.raw('ANALYZE receivables');

    const list = (filter: { status?: (typeof RECEIVABLE_STATUSES)[number]; receivableType: 'CREDIT_NOTE' | 'RETENTION' }) =>
      readsOf(uow, ['receivables'], (bound) =>
        new KnexReceivableQueries(() => bound.executor()).list({ customerId: customer.id, ...filter }, { page: 1, count: 20 }),
      );

    const notes = await list({ receivableType: 'CREDIT_NOTE' });
    expect(notes.result.total).toBe(40);
    expect(notes.result.items.map((r) => r.toSnapshot().receivableType)).toEqual(Array(20).fill('CREDIT_NOTE'));
    const created = notes.result.items.map((r) => r.toSnapshot().creationDate.getTime());
    expect(created).toEqual([...created].sort((a, b) => b - a));
    const pendingNotes = await list({ receivableType: 'CREDIT_NOTE', status: RECEIVABLE_STATUSES[0] });
    const none = await list({ receivableType: 'RETENTION' });
    expect(none.result.total).toBe(0);
    // A page and its total from the type's entries; without the index, the customer's 4,000 receivables, twice.
    for (const { read } of [notes, pendingNotes, none]) expect(read).toBeLessThan(150);
  });
});
