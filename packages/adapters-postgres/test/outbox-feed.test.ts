import { DEFAULT_CUSTOMER_SETTINGS, DispatchEvents, type DomainEvent, type StoredEvent, type TransactionScope } from '@rcs/domain';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { itOnRealServer, openTestDatabase, type TestDatabase } from '../testing';

const T0 = new Date('2026-03-01T10:00:00.000Z');

/**
 * The dispatcher's reader against what only a server shows: writers that commit out of seq order, and a reader
 * whose connection dies half-way through its batch. PGlite serves one transaction at a time: there the first
 * writer's open transaction would block the second.
 */
describe(`outbox feed on a PostgreSQL server (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;
  let customerId: number;
  let otherCustomerId: number;
  const itOnServer = itOnRealServer('needs two transactions open at once; PGlite serves one at a time');
  const event = (n: number, customer = customerId): DomainEvent => ({
    customerId: customer,
    type: 'receivable.created',
    occurredAt: T0,
    data: { receivable: { id: n } },
  });
  const seqOf = async (n: number) =>
    Number(
      (
        await db
          .knex('outbox_events')
          .whereRaw(`data::jsonb -> 'receivable' ->> 'id' = ?`, [String(n)])
          .first('seq')
      ).seq,
    );
  /** One dispatch run to its end; what its handler was handed, by receivable id in the event. */
  const dispatch = async (handler?: (events: readonly StoredEvent[], tx: TransactionScope) => Promise<void>) => {
    const handed: number[] = [];
    await new DispatchEvents(uow).execute({
      handler: async (events, tx) => {
        handed.push(...events.map((e) => (e.data.receivable as { id: number }).id));
        await handler?.(events, tx);
      },
    });
    return handed;
  };

  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: 4 });
    uow = new KnexUnitOfWork(db.knex);
    const customerNamed = async (name: string) =>
      (await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name, creationDate: T0 }))).customer.id;
    customerId = await customerNamed('feed');
    otherCustomerId = await customerNamed('feed-other');
  });
  afterAll(async () => db.close());
  beforeEach(() => dispatch());

  itOnServer('hands out an event whose transaction commits after a later-numbered one, once, when it commits', async () => {
    let commitFirst!: () => void;
    let recorded!: () => void;
    const firstRecorded = new Promise<void>((resolve) => (recorded = resolve));
    const first = uow.begin(async (bound) => {
      await bound.run((tx) => tx.outbox.record([event(10)]));
      // A statement after the insert on the same connection: the insert has run, so the event has its seq.
      await bound.executor().raw('SELECT 1');
      recorded();
      await new Promise<void>((resolve) => (commitFirst = resolve));
    });
    await firstRecorded;
    // Another customer's: writers of one customer may share a slot of its maintained event count, and then the
    // second would rightly wait for the first to commit, which this test holds back.
    await uow.run((tx) => tx.outbox.record([event(11, otherCustomerId)]));

    expect(await dispatch()).toEqual([11]);
    commitFirst();
    await first;
    // The premise: the event handed out second was numbered first.
    expect(await seqOf(10)).toBeLessThan(await seqOf(11));
    expect(await dispatch()).toEqual([10]);
    expect(await dispatch()).toEqual([]);
  });

  itOnServer("leaves a batch to the next dispatch when the reader's connection dies half-way through it", async () => {
    await uow.run((tx) => tx.outbox.record([event(20), event(21)]));
    // Knex reports the lost connection on the console: expected here.
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
    // The dispatch on a transaction it is handed, so that its handler kills that transaction's own connection.
    const killed = uow.begin((bound) =>
      new DispatchEvents(bound).execute({
        handler: async () => {
          const { rows } = await bound.executor().raw<{ rows: Array<{ pid: number }> }>('SELECT pg_backend_pid() AS pid');
          await db.knex.raw('SELECT pg_terminate_backend(?)', [rows[0].pid]);
          await bound.executor().raw('SELECT 1');
        },
      }),
    );
    await expect(killed).rejects.toThrow();
    expect(await dispatch()).toEqual([20, 21]);
    jest.restoreAllMocks();
  });
});
