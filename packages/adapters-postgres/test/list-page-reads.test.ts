import type { Knex } from 'knex';
import { DEFAULT_CUSTOMER_SETTINGS, type PageRequest } from '@rcs/domain';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { KnexAssociateQueries } from '../src/repositories/knex-associate-repository';
import { KnexClientQueries } from '../src/repositories/knex-client-repository';
import { KnexLedgerQueries } from '../src/repositories/knex-ledger';
import { KnexRouteSettlementQueries } from '../src/repositories/knex-route-settlement-repository';
import { KnexSettlementQueries } from '../src/repositories/knex-settlements';
import { readsOf } from './support/reads';
import { itOnRealServer, openTestDatabase, type TestDatabase } from '../testing';

const ROWS = 3_000;
const T0 = new Date('2026-03-01T10:00:00.000Z');

/**
 * Page 1 of the movements, settlements, clients, associates and route settlements lists reads the page and its
 * maintained total (migration 027), not every row the list holds: with thousands of rows in each, the page and
 * its total read a few dozen index entries and rows of the list's table and of list_counts.
 */
describe(`a counted list's page 1 (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;
  let customerId: number;
  let mainId: number;
  let receivableAccountId: number;
  let associateId: number;

  beforeAll(async () => {
    db = await openTestDatabase();
    uow = new KnexUnitOfWork(db.knex);
    ({ id: customerId } = (
      await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'list page reads', creationDate: T0 }))
    ).customer);
    const one = async (sql: string, bindings: readonly number[] = []) =>
      Number((await db.knex.raw<{ rows: Array<{ id: string }> }>(sql, [customerId, ...bindings])).rows[0]?.id);
    const rows = (sql: string, bindings: readonly number[] = []) => db.knex.raw(sql, [customerId, ...bindings, ROWS]);
    mainId = await one(
      `INSERT INTO current_accounts (customer_id, account_type, cvu, alias, currency_code, status, creation_date, modification_date)
       VALUES (?, 'MAIN', '0000044900000000000001', 'reads.main', 'ARS', 'ACTIVE', now(), now()) RETURNING id`,
    );
    await rows(
      `INSERT INTO clients (customer_id, business_name, tax_id, document_type, creation_date, modification_date, version)
       SELECT ?, 'Client ' || g, lpad(g::text, 11, '0'), 'CUIT', now() - g * interval '1 second', now(), 1 FROM generate_series(1, ?) g`,
    );
    await rows(
      `INSERT INTO associates (customer_id, type, name, last_name, tax_id, document_number, email, phone, status, creation_date, modification_date, version)
       SELECT ?, 'DRIVER', 'A', 'B' || g, lpad(g::text, 11, '0'), g::text, 'a@b.c', '+541100000000', 'ACTIVE', now() - g * interval '1 second', now(), 1
       FROM generate_series(1, ?) g`,
    );
    associateId = await one('SELECT min(id) AS id FROM associates WHERE customer_id = ?');
    await rows(
      `INSERT INTO route_settlements (customer_id, route_code, date, associate_id, creation_date, modification_date)
       SELECT ?, 'R' || g, DATE '2026-01-01' + g, ?, now() - g * interval '1 second', now() FROM generate_series(1, ?) g`,
      [associateId],
    );
    receivableAccountId = await one(
      `INSERT INTO receivable_accounts (customer_id, client_id, currency_code, status, cvu, alias, creation_date, modification_date, version)
       SELECT ?, min(id), 'ARS', 'ACTIVE', '0000044900000000000002', 'reads.ra', now(), now(), 1 FROM clients WHERE customer_id = ? RETURNING id`,
      [customerId],
    );
    await rows(
      `INSERT INTO settlements (customer_id, receivable_account_id, current_account_id, amount_minor, currency_code, settlement_date, creation_date)
       SELECT ?, ?, ?, 100, 'ARS', now(), now() - g * interval '1 second' FROM generate_series(1, ?) g`,
      [receivableAccountId, mainId],
    );
    await rows(
      `INSERT INTO movements (customer_id, account_id, account_kind, movement_type, operation_type, subtype, amount_minor, currency_code, movement_date)
       SELECT ?, ?, 'CURRENT', 'CREDIT', 'SETTLEMENT', 'SETTLEMENT_IN', 100, 'ARS', now() - g * interval '1 second' FROM generate_series(1, ?) g`,
      [mainId],
    );
    // As a database that has been running would be: statistics known.
    await db.knex.raw('ANALYZE');
  });
  afterAll(async () => db.close());

  const page: PageRequest = { page: 1, count: 20 };
  const lastPage: PageRequest = { page: ROWS / 20, count: 20 };
  /** Each list, named, with its table, read through `db` (the measured transaction). */
  const cases: Array<[string, string, (db: () => Knex, at: PageRequest) => Promise<{ total: number; items: readonly unknown[] }>]> = [
    [
      "a current account's movements",
      'movements',
      (db, at) => new KnexLedgerQueries(db).listMovements({ customerId, accountId: mainId, accountKind: 'CURRENT', order: 'desc' }, at),
    ],
    [
      "a current account's settlement movements, oldest first",
      'movements',
      (db, at) =>
        new KnexLedgerQueries(db).listMovements({ customerId, accountId: mainId, accountKind: 'CURRENT', operationType: 'SETTLEMENT', order: 'asc' }, at),
    ],
    ["the customer's settlements", 'settlements', (db, at) => new KnexSettlementQueries(db).list({ customerId }, at)],
    ["a receivable account's settlements", 'settlements', (db, at) => new KnexSettlementQueries(db).list({ customerId, receivableAccountId }, at)],
    ["the customer's clients", 'clients', (db, at) => new KnexClientQueries(db).list({ customerId }, at)],
    ["the customer's ACTIVE associates", 'associates', (db, at) => new KnexAssociateQueries(db).list({ customerId, status: 'ACTIVE' }, at)],
    ["the customer's route settlements", 'route_settlements', (db, at) => new KnexRouteSettlementQueries(db).list({ customerId }, at)],
  ];

  it.each(cases)('of %s reads the page and its total, not the %s it does not show, the last page alike', async (_, table, list) => {
    for (const at of [page, lastPage]) {
      const { result, read } = await readsOf(uow, [table, 'list_counts'], (bound) => list(bound.executor, at));
      expect([result.total, result.items.length]).toEqual([ROWS, at.count]);
      // 21 rows of the page (one more tells whether another follows) and a few count slots; counting is thousands.
      expect(read).toBeLessThan(100);
    }
  });

  itOnRealServer('names its statements only on a real server (PGlite is sent them unnamed)')(
    'plans page 1 and the last page of each list once per connection, not on every request',
    async () => {
      // A planned statement of a list cost about four times its execution; PostgreSQL keeps a generic plan only when
      // it can cost it, which a bound LIMIT prevents (paging.ts, WRITTEN_LIMITS).
      const plans = await uow.begin(async (bound) => {
        for (const [, , list] of cases) for (let i = 0; i < 7; i++) for (const at of [page, lastPage]) await list(bound.executor, at);
        const { rows } = await bound
          .executor()
          .raw<{ rows: Array<{ statement: string; generic_plans: number; custom_plans: number }> }>(
            `SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE '%page_total%'`,
          );
        return rows;
      });
      expect(plans.length).toBeGreaterThanOrEqual(cases.length * 2);
      for (const plan of plans) expect({ statement: plan.statement, kept: plan.generic_plans >= 2 }).toEqual({ statement: plan.statement, kept: true });
    },
  );
});
