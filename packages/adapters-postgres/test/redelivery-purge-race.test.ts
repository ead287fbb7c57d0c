import { DEFAULT_CUSTOMER_SETTINGS, Webhook } from '@rcs/domain';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { itOnRealServer, openTestDatabase, waitForLockWaiters, type TestDatabase } from '../testing';

const OLD = new Date('2024-01-01T00:00:00.000Z');
/** The purge's cutoff: OLD is past the retention window. */
const CUTOFF = new Date('2024-03-01T00:00:00.000Z');

/** A promise and the function that settles it. */
function latch(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/**
 * A manual redelivery stores an attempt of an event it read before its transaction; the purge deletes old events
 * with their attempts. Attempts go with their event only, so one stored for an event purged at that moment would
 * stay forever, and one deleted while it is being sent would vanish from the history: the redelivery holds the event
 * while it stores the attempt (EventFeed.hold), and the purge passes over held events.
 */
describe(`a redelivery racing the event purge (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;
  let events = 0;

  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: 4 });
    uow = new KnexUnitOfWork(db.knex);
  });
  afterAll(async () => db.close());

  /** A webhook and an old, dispatched event of its customer. */
  const anOldEvent = async () => {
    const { customer } = await uow.run((tx) =>
      tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: `purge race ${++events}`, creationDate: OLD }),
    );
    const subscription = { url: 'https://erp.example/hooks', events: ['receivable.paid' as const] };
    const webhook = await uow.run((tx) => tx.webhooks.insert(Webhook.register(customer.id, subscription, { sealed: 's', tail: '0000' }, OLD)));
    const eventId = `evt_race${process.pid}x${events}`;
    await db.knex('outbox_events').insert({ id: eventId, customer_id: customer.id, type: 'receivable.paid', data: {}, occurred_at: OLD });
    return { webhook, eventId };
  };
  const storeAttempt = (tx: Parameters<Parameters<KnexUnitOfWork['run']>[0]>[0], webhook: Webhook, eventId: string) =>
    tx.webhookDeliveries.insert({
      webhookId: webhook.id,
      customerId: webhook.customerId,
      eventId,
      eventType: 'receivable.paid',
      attempt: 1,
      scheduleStep: null,
      payload: '{}',
      createdAt: CUTOFF,
      claimedUntil: CUTOFF,
    });
  const rowsOf = async (eventId: string) => ({
    events: Number((await db.knex('outbox_events').where({ id: eventId }).count<{ n: string }[]>({ n: '*' }))[0].n),
    attempts: Number((await db.knex('webhook_deliveries').where({ event_id: eventId }).count<{ n: string }[]>({ n: '*' }))[0].n),
  });

  itOnRealServer('a purge meeting a held event needs a second connection; PGlite has one')(
    'passes over an event a redelivery holds, and keeps it while the attempt the redelivery stored is to be made',
    async () => {
      const { webhook, eventId } = await anOldEvent();
      const stored = latch();
      const commit = latch();
      const redelivery = uow.run(async (tx) => {
        expect(await tx.eventFeed.hold(eventId)).toBe(true);
        await storeAttempt(tx, webhook, eventId);
        stored.open();
        await commit.promise;
      });
      await stored.promise;
      // Neither waits for the other: the purge skips the held event.
      await uow.run((tx) => tx.eventFeed.purgeDispatched(CUTOFF, undefined, 1_000));
      expect(await rowsOf(eventId)).toEqual({ events: 1, attempts: 0 });
      commit.open();
      await redelivery;
      // The attempt, PENDING, keeps its event from the next pass, until it is made.
      await uow.run((tx) => tx.eventFeed.purgeDispatched(CUTOFF, undefined, 1_000));
      expect(await rowsOf(eventId)).toEqual({ events: 1, attempts: 1 });
    },
  );

  itOnRealServer('a hold waiting on a purge needs a second connection; PGlite has one')(
    'tells a redelivery that the event the purge is deleting is gone, so it stores nothing',
    async () => {
      const { eventId } = await anOldEvent();
      const deleted = latch();
      const commit = latch();
      let purger = 0;
      const purge = uow.begin(async (bound) => {
        purger = (await bound.executor().raw<{ rows: Array<{ pid: number }> }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
        await bound.run((tx) => tx.eventFeed.purgeDispatched(CUTOFF, undefined, 1_000));
        deleted.open();
        await commit.promise;
      });
      await deleted.promise;
      const held = uow.run((tx) => tx.eventFeed.hold(eventId));
      await waitForLockWaiters(db.knex, 1, purger);
      commit.open();
      await purge;

      expect(await held).toBe(false);
      expect(await rowsOf(eventId)).toEqual({ events: 0, attempts: 0 });
    },
  );
});
