import type { Knex } from 'knex';
import { DEFAULT_CUSTOMER_SETTINGS } from '@rcs/domain';
import { KnexUnitOfWork, type BoundKnexUnitOfWork } from '../../src/knex-unit-of-work';
import { openTestDatabase, type TestDatabase } from '../../testing';
import { insertAccountRow } from './account-row';

export interface ReadsOptions {
  /**
   * Count rows read by sequential scans too (true unless told). Off, only what indexes gave is counted: for a
   * statement whose small test tables PostgreSQL scans whole where it would read a large one by index.
   */
  readonly scans?: boolean;
}

/**
 * Runs `work` in a transaction and counts the index entries and table rows of `tables` it read, from the
 * transaction's own statistics: what a statement costs as the data grows, whatever the machine's speed.
 */
export function readsOf<T>(
  uow: KnexUnitOfWork,
  tables: readonly string[],
  work: (bound: BoundKnexUnitOfWork) => Promise<T>,
  options: ReadsOptions = {},
): Promise<{ result: T; read: number }> {
  return uow.begin(async (bound) => {
    const read = async () => readSoFar(bound.executor(), tables, options.scans ?? true);
    const before = await read();
    const result = await work(bound);
    return { result, read: (await read()) - before };
  });
}

async function readSoFar(db: Knex, tables: readonly string[], scans: boolean): Promise<number> {
  const { rows } = await db.raw<{ rows: { n: string }[] }>(
    `SELECT sum(CASE WHEN ? THEN pg_stat_get_xact_tuples_returned(t.oid) ELSE 0 END + pg_stat_get_xact_tuples_fetched(t.oid)
       + (SELECT COALESCE(sum(pg_stat_get_xact_tuples_returned(indexrelid)), 0) FROM pg_index WHERE indrelid = t.oid)) AS n
     FROM pg_class t WHERE t.oid = ANY(?::regclass[])`,
    [scans, [...tables]],
  );
  return Number(rows[0].n);
}

/** A database for one file's scale tests (beforeAll, afterAll), and customers and accounts written into it. */
export function scaleDatabase() {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;
  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: 2 });
    uow = new KnexUnitOfWork(db.knex);
  });
  afterAll(async () => db.close());
  return {
    get db() {
      return db;
    },
    get uow() {
      return uow;
    },
    aCustomer: async (name: string) =>
      (await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name, creationDate: new Date() }))).customer.id,
    anAccount: (customerId: number) => insertAccountRow(db.knex, customerId, customerId, { status: 'ACTIVE' }),
  };
}
