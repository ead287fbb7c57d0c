import { DEFAULT_CUSTOMER_SETTINGS, Webhook } from '@rcs/domain';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { itOnRealServer, openTestDatabase, waitForLockWaiters, type TestDatabase } from '../testing';

const T0 = new Date('2026-03-01T10:00:00.000Z');

/**
 * A delivery worker records a batch of results to several webhooks in one transaction; two instances' batches may
 * share webhooks. Taking their rows in id order, whatever order the results came in, neither ever holds a row the
 * other waits for: no deadlock, which PostgreSQL would find only after deadlock_timeout.
 */
describe(`webhook rows locked for recording (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;

  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: 4 });
    uow = new KnexUnitOfWork(db.knex);
  });
  afterAll(async () => db.close());

  itOnRealServer('rows wait on each other only across two connections; PGlite has one')(
    'are locked in id order: a recording waiting for the lower row holds no higher one',
    async () => {
      const { customer } = await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'recording locks', creationDate: T0 }));
      const register = () =>
        uow.run((tx) =>
          tx.webhooks.insert(
            Webhook.register(customer.id, { url: 'https://erp.example/hooks', events: ['receivable.paid'] }, { sealed: 's', tail: '0000' }, T0),
          ),
        );
      const [low, high] = [await register(), await register()];
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let held!: () => void;
      const lowHeld = new Promise<void>((resolve) => (held = resolve));
      const holding = uow.run(async (tx) => {
        await tx.webhooks.getForUpdate(low.id);
        held();
        await released;
      });
      await lowHeld;
      const locking = uow.run((tx) => tx.webhooks.lockForRecording([high.id, low.id]));
      await waitForLockWaiters(db.knex, 1);
      const other = uow.run((tx) => tx.webhooks.recordDelivery(high.id, T0, ['SUCCESS'])).then(() => 'recorded');
      let timer!: NodeJS.Timeout;
      const outcome = await Promise.race([other, new Promise((resolve) => (timer = setTimeout(resolve, 2_000, 'held up')))]);
      clearTimeout(timer);
      release();
      await Promise.all([holding, locking, other]);
      expect(outcome).toBe('recorded');
    },
  );
});
