import type { ReceivableListFilter } from '@rcs/domain';
import { KnexReceivableQueries } from '../src/repositories/knex-receivable-queries';
import { itOnRealServer } from '../testing';
import { readsOf, scaleDatabase } from './support/reads';

const SMALL_CUSTOMERS = 2_000;
const LARGE = 60_000;

/**
 * A list of receivables with a due-date or amount range is planned with its values on every request. Its named
 * statement's plan, once PostgreSQL made it generic over the small customers that asked first on a connection,
 * read every due date of a large customer's five statuses and sorted them (a review: 4 to 7 s at 600,000 rows).
 */
describe(`a receivables list with a due-date or amount range (${process.env.RCS_TEST_STORAGE})`, () => {
  const s = scaleDatabase();
  let large: number;
  let smallest: number;

  beforeAll(async () => {
    large = await s.aCustomer('large');
    // Customers of ten receivables each, as most are, and one holding far more, due over two years, 1 in 10 PAID.
    const { rows } = await s.db.knex.raw<{ rows: Array<{ id: string }> }>(
      `INSERT INTO customers (name, creation_date) SELECT 'small ' || g, now() FROM generate_series(1, ?) g RETURNING id`,
      [SMALL_CUSTOMERS],
    );
    smallest = Number(rows[0].id);
    await s.db.knex.raw(
      `WITH c AS (
         INSERT INTO clients (customer_id, business_name, tax_id, document_type, creation_date, modification_date, version)
         SELECT id, 'Client', '30000000007', 'CUIT', now(), now(), 1 FROM customers WHERE id = ? OR id >= ? RETURNING id, customer_id
       )
       INSERT INTO receivable_accounts (customer_id, client_id, currency_code, status, creation_date, modification_date, version)
       SELECT customer_id, id, 'ARS', 'ACTIVE', now(), now(), 1 FROM c`,
      [large, smallest],
    );
    await s.db.knex.raw(
      `INSERT INTO receivables (customer_id, receivable_account_id, client_id, amount_minor, currency_code, receivable_type, status, due_date,
         receivable_date, creation_date, modification_date, version)
       SELECT a.customer_id, a.id, a.client_id, 100 + g, 'ARS', 'INVOICE', CASE WHEN g % 10 = 0 THEN 'PAID' ELSE 'PENDING' END,
         DATE '2025-01-01' + g % 730, DATE '2025-01-01', now() - g * interval '1 second', now(), 1
       FROM receivable_accounts a CROSS JOIN LATERAL generate_series(1, CASE WHEN a.customer_id = ? THEN ? ELSE 10 END) g`,
      [large, LARGE],
    );
    await s.db.knex.raw('ANALYZE');
  });

  /**
   * Each range, and what its two pages may read: the due dates' total is summed from their days' counts, the
   * amounts' counted from their index on every page (60,000 entries each time); the generic plan read 312,279 and
   * 432,359.
   */
  const ranges: Array<[Omit<ReceivableListFilter, 'customerId'>, number]> = [
    [{ fromDueDate: '2025-01-01', toDueDate: '2026-12-31' }, 50_000],
    [{ minAmountMinor: 1n, maxAmountMinor: 100_000_000n }, 2 * LARGE + 100_000],
  ];

  itOnRealServer('PGlite is sent every statement unnamed: no plan is kept for another request')(
    "reads a large customer's pages by what they answer after small customers' pages on the same connection",
    async () => {
      for (const [range, most] of ranges) {
        const { result, read } = await readsOf(s.uow, ['receivables'], async (bound) => {
          const queries = new KnexReceivableQueries(bound.executor);
          // More than the five custom plans after which PostgreSQL may keep a generic one.
          for (let small = smallest; small < smallest + 8; small++) await queries.list({ customerId: small, ...range }, { page: 1, count: 20 });
          const first = await queries.list({ customerId: large, ...range }, { page: 1, count: 20 });
          const second = await queries.list({ customerId: large, ...range }, { page: 2, count: 20 });
          return [first.total, first.items.length, second.items.length];
        });
        expect({ range, result }).toEqual({ range, result: [LARGE, 20, 20] });
        expect({ range, read: read < most }).toEqual({ range, read: true });
      }
    },
  );
});
