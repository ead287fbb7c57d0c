import { DEFAULT_CUSTOMER_SETTINGS } from '@rcs/domain';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { readsOf } from './support/reads';
import { webhookWithAttempts } from './support/webhook-attempts';
import { openTestDatabase, type TestDatabase } from '../testing';

const T0 = new Date('2026-03-01T10:00:00.000Z');

/**
 * A deleted webhook's attempts outlive it until the event purge (migration 034). The purge reads the attempts it
 * deletes, not the table's others, and leaves no count behind for the webhook that is gone.
 */
describe(`the purge of a deleted webhook's attempts (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;
  let customerId: number;

  beforeAll(async () => {
    db = await openTestDatabase();
    uow = new KnexUnitOfWork(db.knex);
    ({ id: customerId } = (
      await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'deleted webhook purge', creationDate: T0 }))
    ).customer);
  });
  afterAll(async () => db.close());

  const webhookWith = (attempts: number) =>
    webhookWithAttempts(uow, customerId, attempts, (n) => ({ createdAt: new Date(T0.getTime() + n), nextAttemptAt: null }), T0);
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
    const live = await webhookWith(3_000);
    const gone = await webhookWith(30);
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
});
