import { DEFAULT_CUSTOMER_SETTINGS, TransactionEndedError, type DomainEvent, type TransactionScope } from '@rcs/domain';
import { KnexUnitOfWork, type BoundKnexUnitOfWork } from '../src/knex-unit-of-work';
import { TransactionRolledBackError } from '../src/pipelined-postgres-client';
import { openTestDatabase, type TestDatabase } from '../testing';

const T0 = new Date('2026-03-01T10:00:00.000Z');

/**
 * Isolated work (the savepoint each keyed request runs its operation in) and the transaction around it: what the
 * work did is kept or undone with it alone, nothing it sends once it has ended runs in the transaction, and a
 * transaction the server rolled back is never reported committed.
 */
describe(`isolated work in a transaction (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;
  let customerId: number;
  const event = (id: number): DomainEvent => ({ customerId, type: 'receivable.created', occurredAt: T0, data: { id } });
  const stored = async () => (await db.knex('outbox_events').where({ customer_id: customerId }).orderBy('seq')).map((row) => row.data.id);

  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: 1 });
    uow = new KnexUnitOfWork(db.knex);
    const { customer } = await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'isolated work', creationDate: T0 }));
    customerId = customer.id;
  });
  afterAll(async () => db.close());
  beforeEach(async () => {
    await db.knex('outbox_events').where({ customer_id: customerId }).delete();
  });

  /** Isolated work that keeps its scope for later, as work outliving its call would; it fails when `refuse`. */
  const capturing = (bound: BoundKnexUnitOfWork, refuse: boolean) => {
    let kept!: TransactionScope;
    const work = () =>
      bound.run(async (inner) => {
        kept = inner;
        await inner.outbox.record([event(2)]);
        if (refuse) throw new Error('refused');
      });
    return { work, scope: () => kept };
  };

  it.each([
    ['kept', false],
    ['undone', true],
  ])('once %s, refuses what is sent through its scope, and the transaction commits without it', async (_ending, refuse) => {
    await uow.begin(async (bound) => {
      await bound.run((tx) => tx.outbox.record([event(1)]));
      const isolated = capturing(bound, refuse);
      const ending = bound.isolated(isolated.work);
      await (refuse ? expect(ending).rejects.toThrow('refused') : ending);
      const late = isolated.scope();
      await expect(late.outbox.record([event(3)])).rejects.toThrow(TransactionEndedError);
      await expect(late.customers.get(customerId)).rejects.toThrow(TransactionEndedError);
      await bound.run((tx) => tx.outbox.record([event(4)]));
    });
    expect(await stored()).toEqual(refuse ? [1, 4] : [1, 2, 4]);
  });

  it('nests, each level kept or undone on its own', async () => {
    await uow.begin(async (bound) => {
      await bound.isolated(async () => {
        await bound.run((tx) => tx.outbox.record([event(1)]));
        await expect(bound.isolated(capturing(bound, true).work)).rejects.toThrow('refused');
        await bound.isolated(capturing(bound, false).work);
      });
      await bound.isolated(() => bound.run((tx) => tx.outbox.record([event(3)])));
    });
    expect(await stored()).toEqual([1, 2, 3]);
  });

  it('that cannot be undone fails the whole transaction, keeping nothing of it', async () => {
    await expect(
      uow.begin(async (bound) => {
        await bound.run((tx) => tx.outbox.record([event(1)]));
        const gone = () =>
          bound.run(async () => {
            // Its savepoint gone, ROLLBACK TO fails: the work's write cannot be undone apart from the transaction's.
            await bound.executor().raw('RELEASE SAVEPOINT isolated_1');
            throw new Error('refused');
          });
        await expect(bound.isolated(gone)).rejects.toThrow('refused');
      }),
    ).rejects.toThrow();
    expect(await stored()).toEqual([]);
  });

  it('is not what a failure that work caught needs: the COMMIT the server answers ROLLBACK is reported as a failure', async () => {
    await expect(
      uow.begin(async (bound) => {
        await bound.run((tx) => tx.outbox.record([event(1)]));
        await expect(bound.executor().raw('SELECT 1 / 0')).rejects.toThrow(/division by zero/);
      }),
    ).rejects.toThrow(TransactionRolledBackError);
    expect(await stored()).toEqual([]);
  });
});
