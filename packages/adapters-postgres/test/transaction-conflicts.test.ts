import { DEFAULT_CUSTOMER_SETTINGS, TransactionConflictError } from '@rcs/domain';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { itOnRealServer, openTestDatabase, type TestDatabase } from '../testing';

const T0 = new Date('2026-03-01T10:00:00.000Z');

/**
 * Two transactions that lock the same rows in opposite orders deadlock; PostgreSQL undoes one of them. The one
 * undone must reach the caller as a conflict to retry (409), not as a fault of the service (500), whether the
 * deadlock hits the outermost transaction's own work or work that joined it. PGlite has one connection: no
 * two transactions ever wait on each other there.
 */
describe(`transaction conflicts (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;
  let ids: [number, number];

  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: 2 });
    uow = new KnexUnitOfWork(db.knex);
    const insert = (name: string) => uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name, creationDate: T0 }));
    ids = [(await insert('conflict A')).customer.id, (await insert('conflict B')).customer.id];
  });
  afterAll(async () => db.close());

  /** Locks `first`, waits until the other transaction holds its first row too, then asks for `second`. */
  function lockInOrder(first: number, second: number, bothHoldOne: Promise<unknown>, holding: () => void, joined: boolean) {
    return uow.begin(async (bound) => {
      const lock = async (id: number) => bound.executor()('customers').where({ id }).forUpdate();
      const body = async () => {
        await lock(first);
        holding();
        await bothHoldOne;
        await lock(second);
      };
      return joined ? bound.run(body) : body();
    });
  }

  const itDeadlocking = itOnRealServer('a deadlock needs two connections; PGlite has one');
  for (const [where, joined] of [
    ['its own work', false],
    ['work that joined it', true],
  ] as const) {
    itDeadlocking(`reports the deadlock victim among two transactions as a TransactionConflictError, from ${where}`, async () => {
      let held = 0;
      let release!: () => void;
      const bothHoldOne = new Promise<void>((resolve) => (release = resolve));
      const holding = () => {
        if (++held === 2) release();
      };
      const outcomes = await Promise.allSettled([
        lockInOrder(ids[0], ids[1], bothHoldOne, holding, joined),
        lockInOrder(ids[1], ids[0], bothHoldOne, holding, joined),
      ]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
      const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')!.reason;
      expect(failure).toBeInstanceOf(TransactionConflictError);
      expect(failure.code).toBe('concurrent-modification');
    });
  }
});

/**
 * A transaction that waits longer than lock_timeout for a row another holds (a long batch of the expiry job, say)
 * is undone by PostgreSQL: that too is a conflict to retry (409), not a fault of the service (500).
 */
describe(`lock timeouts (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;
  let id: number;

  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: 2, lockTimeoutMs: 200 });
    uow = new KnexUnitOfWork(db.knex);
    id = (await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'timeout A', creationDate: T0 }))).customer.id;
  });
  afterAll(async () => db.close());

  itOnRealServer('a wait for a lock needs two connections; PGlite has one')('reports a wait past lock_timeout as a TransactionConflictError', async () => {
    const holder = await db.knex.transaction();
    try {
      await holder('customers').where({ id }).forUpdate();
      const waiting = uow.begin((bound) => bound.executor()('customers').where({ id }).update({ name: 'timeout B' }));
      await expect(waiting).rejects.toBeInstanceOf(TransactionConflictError);
    } finally {
      await holder.rollback();
    }
    expect((await db.knex('customers').where({ id }).first('name')).name).toBe('timeout A');
  });
});
