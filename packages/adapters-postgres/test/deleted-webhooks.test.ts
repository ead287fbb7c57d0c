import { DEFAULT_CUSTOMER_SETTINGS, DeliverWebhooks, type TransactionScope, type UnitOfWork } from '@rcs/domain';
import { fakeWebhookPorts } from '@rcs/domain/testing';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { readsOf } from './support/reads';
import { webhookWithAttempts } from './support/webhook-attempts';
import { migrateToLatest, migrationSource } from '../src/migrations';
import { itOnRealServer, openTestDatabase, waitForLockWaiters, type TestDatabase } from '../testing';

const T0 = new Date('2026-03-01T10:00:00.000Z');

/** A transaction of its own, open until `release`d; `started` once `work` ran in it. */
function heldOpen(uow: KnexUnitOfWork, work: (tx: TransactionScope) => Promise<unknown>) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const begun = new Promise<void>((resolve) => (started = resolve));
  const done = uow.run(async (tx) => {
    await work(tx);
    started();
    await released;
  });
  return { begun, release, done };
}

/**
 * A deleted webhook's attempts outlive it until the event purge (migration 034), which reads the attempts it
 * deletes, not the table's others, and leaves no count behind. Writers racing the deletion, which no foreign key
 * from the attempts orders any more, neither fail nor deadlock, and leave no attempt or next-due bound behind.
 */
describe(`a deleted webhook's attempts (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;
  let customerId: number;

  beforeAll(async () => {
    db = await openTestDatabase();
    uow = new KnexUnitOfWork(db.knex);
    ({ id: customerId } = (
      await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'deleted webhooks', creationDate: T0 }))
    ).customer);
  });
  afterAll(async () => db.close());

  const webhookWith = (attempts: number, due: Date | null) => webhookWithAttempts(uow, customerId, attempts, () => ({ createdAt: T0, nextAttemptAt: due }), T0);
  const leftOf = async (webhookId: number) => ({
    bounds: (await db.knex('webhook_next_due').where({ webhook_id: webhookId })).length,
    due: (await db.knex('webhook_deliveries').where({ webhook_id: webhookId }).whereNotNull('next_attempt_at')).length,
  });

  const countRows = async (webhookId: number) =>
    Number(
      (
        await db.knex.raw<{ rows: { n: string }[] }>(
          `SELECT count(*) AS n FROM list_counts WHERE list = 'webhook_deliveries' AND scope = 'webhook' AND scope_id = ?`,
          [webhookId],
        )
      ).rows[0].n,
    );

  it("reads a batch's worth of the deleted webhook's attempts, not the other webhooks' thousands, and leaves none of its counts", async () => {
    const live = await webhookWith(3_000, null);
    const gone = await webhookWith(30, null);
    await db.knex.raw('ANALYZE webhook_deliveries');
    await uow.run((tx) => tx.webhooks.delete(gone));
    const { result, read } = await readsOf(uow, ['webhook_deliveries'], (bound) => bound.run((tx) => tx.webhookDeliveries.purgeOfDeletedWebhooks(10)));
    expect(result).toBe(10);
    // The ten it deletes, found and fetched; a sequential scan would read the live webhook's 3,000.
    expect(read).toBeLessThan(100);
    expect(await countRows(gone)).toBe(0);
    await uow.run((tx) => tx.webhookDeliveries.purgeOfDeletedWebhooks(1_000));
    const left = await db.knex('webhook_deliveries').whereIn('webhook_id', [live, gone]).groupBy('webhook_id').select('webhook_id').count();
    expect(left).toEqual([{ webhook_id: String(live), count: '3000' }]);
    expect([await countRows(gone), await countRows(live)]).toEqual([0, 1]);
    expect(await db.knex('deleted_webhooks').where({ webhook_id: gone })).toEqual([]);
  });

  it('deletes a large batch of them by primary key, not by scanning every attempt of the table to match them', async () => {
    const live = await webhookWith(20_000, null);
    const gone = await webhookWith(3_000, null);
    await db.knex.raw('ANALYZE webhook_deliveries');
    await uow.run((tx) => tx.webhooks.delete(gone));
    const { result, read } = await readsOf(uow, ['webhook_deliveries'], (bound) => bound.run((tx) => tx.webhookDeliveries.purgeOfDeletedWebhooks(3_000)));
    expect(result).toBe(3_000);
    // Each one found in the history index, fetched, then found again by primary key to delete it: a few reads each.
    // Matched by a hash of the batch, the deletion read the live webhook's 20,000 too.
    expect(read).toBeLessThan(4 * 3_000);
    expect(await db.knex('webhook_deliveries').where({ webhook_id: live }).count()).toEqual([{ count: '20000' }]);
  });

  it('purges the attempts of a webhook deleted by a bare DELETE, as a version before 034 running beside this one deletes, a due retry among them', async () => {
    const gone = await webhookWith(5, T0);
    await db.knex('webhooks').where({ id: gone }).delete();
    await uow.run((tx) => tx.webhookDeliveries.purgeOfDeletedWebhooks(1_000));
    expect(await db.knex('webhook_deliveries').where({ webhook_id: gone })).toEqual([]);
    expect(await db.knex('deleted_webhooks').where({ webhook_id: gone })).toEqual([]);
  });

  it('records, when migrating, the webhooks such deletions left attempts of before the database recorded every deletion', async () => {
    const older = await openTestDatabase();
    try {
      const olderUow = new KnexUnitOfWork(older.knex);
      const { id: owner } = (await olderUow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'older', creationDate: T0 })))
        .customer;
      const withAttempts = () => webhookWithAttempts(olderUow, owner, 3, () => ({ createdAt: T0, nextAttemptAt: T0 }), T0);
      // Deleted ones between and after kept ones: the walk from one webhook id to the next finds each.
      const [kept, gone, keptToo, goneToo] = [await withAttempts(), await withAttempts(), await withAttempts(), await withAttempts()];
      await older.knex.migrate.down({ migrationSource, name: '046-webhook-deletions-recorded' });
      await older.knex('webhooks').whereIn('id', [gone, goneToo]).delete();
      expect(await older.knex('deleted_webhooks')).toEqual([]);
      await migrateToLatest(older.knex, { embedded: older.storage === 'pglite' });
      expect((await older.knex('deleted_webhooks').orderBy('webhook_id').pluck('webhook_id')).map(Number)).toEqual([gone, goneToo]);
      await olderUow.run((tx) => tx.webhookDeliveries.purgeOfDeletedWebhooks(1_000));
      const left = await older.knex.raw<{ rows: Array<{ webhook_id: string; n: string }> }>(
        'SELECT webhook_id, count(*) AS n FROM webhook_deliveries GROUP BY webhook_id ORDER BY webhook_id',
      );
      expect(left.rows.map((row) => [Number(row.webhook_id), Number(row.n)])).toEqual([
        [kept, 3],
        [keptToo, 3],
      ]);
    } finally {
      await older.close();
    }
  });

  itOnRealServer('a deletion that writers wait for needs a second connection; PGlite has one')(
    'a dispatch and a release waiting for a deletion write no attempt and no bound for the webhook, and do not fail',
    async () => {
      const gone = await webhookWith(1, null);
      const deleting = heldOpen(uow, (tx) => tx.webhooks.delete(gone));
      await deleting.begun;
      const now = new Date();
      const due = {
        webhookId: gone,
        customerId,
        eventId: 'evt_racing',
        eventType: 'receivable.paid' as const,
        attempt: 1,
        scheduleStep: 1,
        payload: '{}',
        createdAt: now,
      };
      // A dispatch that read the webhook before the deletion, and an activation's release of its held attempt.
      const dispatching = uow.run((tx) => tx.webhookDeliveries.schedule([{ ...due, nextAttemptAt: now }]));
      const releasing = uow.run((tx) => tx.webhookDeliveries.release(gone, now, T0));
      await waitForLockWaiters(db.knex, 2);
      deleting.release();
      await Promise.all([deleting.done, dispatching, releasing]);
      expect(await db.knex('webhook_deliveries').where({ webhook_id: gone, event_id: 'evt_racing' })).toEqual([]);
      expect(await db.knex('webhook_next_due').where({ webhook_id: gone })).toEqual([]);
    },
  );

  itOnRealServer('a claim and a deletion racing need two connections; PGlite has one')(
    "a claim giving back a changing webhook's attempts and that webhook's deletion do not deadlock",
    async () => {
      const gone = await webhookWith(1, T0);
      await uow.run(async (tx) => tx.webhooks.update((await tx.webhooks.getForUpdate(gone))!.pause(T0)));
      // The deletion reads the webhook for change; the claim then leases its due attempt (raising its next-due
      // bound), finds it locked and gives the attempt back; meanwhile the deletion deletes, which takes the bound.
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      let go!: () => void;
      const going = new Promise<void>((resolve) => (go = resolve));
      const deletion = uow.run(async (tx) => {
        await tx.webhooks.getForUpdate(gone);
        locked();
        await going;
        await tx.webhooks.delete(gone);
      });
      await isLocked;
      let statusesRead!: () => void;
      const read = new Promise<void>((resolve) => (statusesRead = resolve));
      let proceed!: () => void;
      const proceeding = new Promise<void>((resolve) => (proceed = resolve));
      const gated: UnitOfWork<TransactionScope> = {
        run: (work) =>
          uow.run((tx) => {
            const webhooks = Object.create(tx.webhooks) as TransactionScope['webhooks'];
            webhooks.lockedStatuses = async (ids, wait) => {
              const statuses = await tx.webhooks.lockedStatuses(ids, wait);
              statusesRead();
              await proceeding;
              return statuses;
            };
            return work(Object.defineProperty(Object.create(tx) as TransactionScope, 'webhooks', { value: webhooks }));
          }),
        inTransaction: () => uow.inTransaction(),
      } as UnitOfWork<TransactionScope>;
      const claiming = new DeliverWebhooks(gated, { now: () => new Date() }, fakeWebhookPorts().webhookDelivery).claim({ limit: 10, perWebhook: 10 });
      try {
        await read;
        go();
        await waitForLockWaiters(db.knex, 1);
      } finally {
        go();
        proceed();
      }
      await expect(Promise.all([claiming, deletion])).resolves.toEqual([[], undefined]);
      expect((await leftOf(gone)).bounds).toBe(0);
    },
  );
});
