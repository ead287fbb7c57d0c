import { DEFAULT_CUSTOMER_SETTINGS, type ScheduledDelivery, type Webhook } from '@rcs/domain';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { SLOTS } from '../src/migrations/counted-lists';
import { registerWebhook } from './support/webhook-attempts';
import { itOnRealServer, openTestDatabase, waitForLockWaiters, type TestDatabase } from '../testing';

const T0 = new Date('2026-03-01T10:00:00.000Z');

/**
 * A delivery worker records a batch of results to several webhooks in one transaction; two instances' batches may
 * share webhooks, and a dispatch writes their attempts in chunks. Taking the rows of several webhooks in id order,
 * whatever order the results came in and whatever the webhooks' customers, none ever holds a row another waits
 * for: no deadlock, which PostgreSQL would find only after deadlock_timeout.
 */
describe(`rows of several webhooks, locked (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;

  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: 4 });
    uow = new KnexUnitOfWork(db.knex);
  });
  afterAll(async () => db.close());

  const customer = async (name: string) =>
    (await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name, creationDate: T0 }))).customer.id;
  const register = (customerId: number) => registerWebhook(uow, customerId, T0);

  itOnRealServer('rows wait on each other only across two connections; PGlite has one')(
    'webhook rows in id order: a recording waiting for the lower one holds no higher one',
    async () => {
      const owner = await customer('recording locks');
      const [low, high] = [await register(owner), await register(owner)];
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

  itOnRealServer('rows wait on each other only across two connections; PGlite has one')(
    'count rows in webhook order, whatever the customers: a statement waiting for a higher webhook’s holds the lower one’s',
    async () => {
      const [earlier, later] = [await customer('count locks 1'), await customer('count locks 2')];
      // The lower webhook belongs to the later customer.
      const [low, high] = [await register(later), await register(earlier)];
      const countRows = `list = 'webhook_deliveries' AND scope = 'webhook' AND status = 'PENDING'`;
      // Every writer's slot's row there already (1 to SLOTS), so a statement's upsert finds and locks them rather than inserting.
      await db.knex.raw(
        `INSERT INTO list_counts (list, customer_id, scope, scope_id, status, slot, n)
         SELECT 'webhook_deliveries', w.customer_id, 'webhook', w.id, 'PENDING', slot, 0 FROM webhooks w, generate_series(1, ${SLOTS}) slot
         WHERE w.id IN (?, ?)`,
        [low.id, high.id],
      );
      const holder = await db.knex.transaction();
      await holder.raw(`SELECT 1 FROM list_counts WHERE ${countRows} AND scope_id = ? FOR UPDATE`, [high.id]);
      const { rows } = await holder.raw<{ rows: { pid: number }[] }>('SELECT pg_backend_pid() AS pid');
      const attempt = (webhook: Webhook): ScheduledDelivery => ({
        webhookId: webhook.id,
        customerId: webhook.customerId,
        eventId: `evt_count_lock_${webhook.id}`,
        eventType: 'receivable.paid',
        attempt: 1,
        scheduleStep: 1,
        payload: '{}',
        createdAt: T0,
        nextAttemptAt: T0,
      });
      const scheduling = uow.run((tx) => tx.webhookDeliveries.schedule([attempt(low), attempt(high)]));
      try {
        await waitForLockWaiters(db.knex, 1, rows[0].pid);
        const free = await db.knex.raw<{ rows: { n: number }[] }>(
          `SELECT count(*)::int AS n FROM (SELECT 1 FROM list_counts WHERE ${countRows} AND scope_id = ? FOR UPDATE SKIP LOCKED) r`,
          [low.id],
        );
        // The waiting statement holds its own slot's row of the lower webhook.
        expect(free.rows[0].n).toBe(SLOTS - 1);
      } finally {
        await holder.commit();
      }
      await scheduling;
    },
  );
});
