import type { Knex } from 'knex';
import { DEFAULT_CUSTOMER_SETTINGS, Webhook } from '@rcs/domain';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { openTestDatabase, type TestDatabase } from '../testing';

const T0 = new Date('2026-03-01T10:00:00.000Z');

/**
 * A burst's attempts are due at times newer than the statistics know: planned on those, each claim read the whole
 * due range of the index in bitmaps. The claim turns bitmap scans off for its own transaction, and only for it.
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

  it('turns bitmap scans off in the claiming transaction, and only there', async () => {
    const { customer } = await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'claim plan', creationDate: T0 }));
    const webhook = await uow.run((tx) =>
      tx.webhooks.insert(Webhook.register(customer.id, { url: 'https://erp.example/hooks', events: ['receivable.paid'] }, { sealed: 's', tail: '0000' }, T0)),
    );
    await uow.run((tx) =>
      tx.webhookDeliveries.schedule(
        Array.from({ length: 3 }, (_, n) => ({
          webhookId: webhook.id,
          customerId: customer.id,
          eventId: `evt_plan_${n}`,
          eventType: 'receivable.paid' as const,
          attempt: 1,
          payload: '{}',
          createdAt: T0,
          nextAttemptAt: T0,
        })),
      ),
    );
    const claim = { now: T0, claimedUntil: new Date(T0.getTime() + 60_000), limit: 10, perWebhook: 10, skipWebhooks: [] };
    const inClaim = await uow.begin(async (bound) => [(await bound.run((tx) => tx.webhookDeliveries.claimDue(claim))).length, await bitmapScans(bound)]);
    expect(inClaim).toEqual([3, 'off']);
    expect(await uow.begin((bound) => bitmapScans(bound))).toBe('on');
  });
});
