import type { Knex } from 'knex';
import { DEFAULT_CUSTOMER_SETTINGS, type PageRequest } from '@rcs/domain';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { KnexAssociateQueries } from '../src/repositories/knex-associate-repository';
import { KnexClientQueries } from '../src/repositories/knex-client-repository';
import { KnexLedgerQueries } from '../src/repositories/knex-ledger';
import { KnexRouteSettlementQueries } from '../src/repositories/knex-route-settlement-repository';
import { KnexSettlementQueries } from '../src/repositories/knex-settlements';
import { readsOf } from './support/reads';
import { openTestDatabase, type TestDatabase } from '../testing';

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
  /** Each list, named, with its table, read through `db` (the measured transaction). */
  const cases: Array<[string, string, (db: () => Knex) => Promise<{ total: number }>]> = [
    [
      "a current account's movements",
      'movements',
      (db) => new KnexLedgerQueries(db).listMovements({ customerId, accountId: mainId, accountKind: 'CURRENT', order: 'desc' }, page),
    ],
    [
      "a current account's settlement movements, oldest first",
      'movements',
      (db) =>
        new KnexLedgerQueries(db).listMovements({ customerId, accountId: mainId, accountKind: 'CURRENT', operationType: 'SETTLEMENT', order: 'asc' }, page),
    ],
    ["the customer's settlements", 'settlements', (db) => new KnexSettlementQueries(db).list({ customerId }, page)],
    ["a receivable account's settlements", 'settlements', (db) => new KnexSettlementQueries(db).list({ customerId, receivableAccountId }, page)],
    ["the customer's clients", 'clients', (db) => new KnexClientQueries(db).list({ customerId }, page)],
    ["the customer's ACTIVE associates", 'associates', (db) => new KnexAssociateQueries(db).list({ customerId, status: 'ACTIVE' }, page)],
    ["the customer's route settlements", 'route_settlements', (db) => new KnexRouteSettlementQueries(db).list({ customerId }, page)],
  ];

  it.each(cases)('of %s reads the page and its total, not the %s it does not show', async (_, table, list) => {
    const { result, read } = await readsOf(uow, [table, 'list_counts'], (bound) => list(bound.executor));
    expect(result.total).toBe(ROWS);
    // 21 rows of the page (one more tells whether another follows) and a few count slots; counting is thousands.
    expect(read).toBeLessThan(100);
  });
});
