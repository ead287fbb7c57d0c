import { DEFAULT_CUSTOMER_SETTINGS } from '@rcs/domain';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { KnexReceivableAccountQueries } from '../src/repositories/knex-receivable-account-queries';
import { readsOf } from './support/reads';
import { openTestDatabase, type TestDatabase } from '../testing';

/** Page 1 of a customer's receivable accounts reads the page, however many accounts the customer holds. */
describe(`the receivable account list's cost (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;

  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: 2 });
    uow = new KnexUnitOfWork(db.knex);
  });
  afterAll(async () => db.close());

  it('reads page 1 from the index in order, with or without a status, not every account of the customer', async () => {
    const { customer } = await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'many accounts', creationDate: new Date() }));
    // 3,000 clients with an account each, 1 in 10 disabled, created a second apart.
    await db.knex.raw(
      `WITH c AS (
         INSERT INTO clients (customer_id, business_name, tax_id, document_type, creation_date, modification_date, version)
         SELECT ?, 'Client ' || n, lpad(n::text, 11, '0'), 'CUIT', now(), now(), 1 FROM generate_series(1, 3000) n RETURNING id
       )
       INSERT INTO receivable_accounts (customer_id, client_id, currency_code, status, disabled_reason, creation_date, modification_date, version)
       SELECT ?, c.id, 'ARS', CASE WHEN c.id % 10 = 0 THEN 'DISABLED' ELSE 'ACTIVE' END,
         CASE WHEN c.id % 10 = 0 THEN 'DISABLED_BY_CUSTOMER' END, now() - c.id * interval '1 second', now(), 1 FROM c`,
      [customer.id, customer.id],
    );
    await db.knex.raw('ANALYZE receivable_accounts, clients');

    for (const status of [undefined, 'ACTIVE' as const]) {
      const { result, read } = await readsOf(uow, ['receivable_accounts'], (bound) =>
        new KnexReceivableAccountQueries(() => bound.executor()).list({ customerId: customer.id, status }, { page: 1, count: 20 }),
      );
      expect(result.items).toHaveLength(20);
      expect(result.total).toBe(status === undefined ? 3_000 : 2_700);
      // Newest first, as the list promises.
      const created = result.items.map((record) => record.account.toSnapshot().creationDate.getTime());
      expect(created).toEqual([...created].sort((a, b) => b - a));
      // A page and a few entries past it in each status's range; sorting the customer's accounts read all 3,000.
      expect(read).toBeLessThan(150);
    }
  });
});
