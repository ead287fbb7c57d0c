import type { Knex } from 'knex';
import { DEFAULT_CUSTOMER_SETTINGS } from '@rcs/domain';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { readByClaim } from './support/claim-reads';
import { webhookWithAttempts } from './support/webhook-attempts';
import { openTestDatabase, type TestDatabase } from '../testing';

const T0 = new Date('2026-03-01T10:00:00.000Z');

/**
 * A burst's attempts are due at times newer than the statistics know: planned on those, each claim read the whole
 * due range of the index in bitmaps. The claim turns bitmap scans off for its own transaction, and only for it.
 * And what a claim reads does not grow with the attempts it does not take.
 */
describe(`the webhook claim's plan (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;

  beforeAll(async () => {
    db = await openTestDatabase();
    uow = new KnexUnitOfWork(db.knex);
  });
  afterAll(async () => db.close());

  /** The setting as `on` reads it: a bound unit of work's transaction, or the pool. */
  const bitmapScans = async (on: { executor: () => Knex }) =>
    (await on.executor().raw<{ rows: { enable_bitmapscan: string }[] }>('SHOW enable_bitmapscan')).rows[0].enable_bitmapscan;

  let customerId: number;
  const webhookWith = (attempts: number, due: Date) => webhookWithAttempts(uow, customerId, attempts, () => ({ createdAt: due, nextAttemptAt: due }), T0);

  beforeAll(async () => {
    ({ id: customerId } = (
      await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'claim plan', creationDate: T0 }))
    ).customer);
  });

  it("reads neither a skipped webhook's due backlog nor the rest of a backlog past what it takes", async () => {
    const now = new Date(T0.getTime() - 3_600_000);
    // Leases past every claim of the next test, which has the table to itself.
    const forGood = new Date(T0.getTime() + 86_400_000);
    const [skipped, backlog, behind] = [
      await webhookWith(3_000, new Date(now.getTime() - 3_000)),
      await webhookWith(3_000, new Date(now.getTime() - 2_000)),
      await webhookWith(1, new Date(now.getTime() - 1_000)),
    ];
    const { claimed, read } = await readByClaim(uow, { now, claimedUntil: forGood, limit: 10, perWebhook: 5, skipWebhooks: [skipped] });
    expect(claimed.map((d) => d.webhookId).sort()).toEqual([backlog, backlog, backlog, backlog, backlog, behind].sort());
    // About three entries per webhook with work and two per attempt taken; reading either backlog would be thousands.
    expect(read).toBeLessThan(100);
    await uow.run((tx) => tx.webhookDeliveries.claimDue({ now, claimedUntil: forGood, limit: 10_000, perWebhook: 10_000, skipWebhooks: [] }));
  });

  it('turns bitmap scans off in the claiming transaction, and only there', async () => {
    await webhookWith(3, T0);
    const claim = { now: T0, claimedUntil: new Date(T0.getTime() + 60_000), limit: 10, perWebhook: 10, skipWebhooks: [] };
    const inClaim = await uow.begin(async (bound) => [(await bound.run((tx) => tx.webhookDeliveries.claimDue(claim))).length, await bitmapScans(bound)]);
    expect(inClaim).toEqual([3, 'off']);
    expect(await uow.begin((bound) => bitmapScans(bound))).toBe('on');
  });
});
