import { migrationSource } from '../src/migrations';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { openTestDatabase, type TestDatabase } from '../testing';
import { insertWebhookRow } from './support/webhook-row';

describe('migration 041-retry-schedule-steps', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('claims an attempt written without a step (before it, or by the previous version) at the step its number gave it', async () => {
    await db.knex.migrate.down({ migrationSource, name: '041-retry-schedule-steps' });
    const now = new Date('2026-03-01T10:00:00.000Z');
    const [customer] = await db.knex('customers').insert({ name: 'Stepped', creation_date: now }).returning('id');
    const webhookId = await insertWebhookRow(db.knex, customer.id, now);
    const attempt = (eventId: string, attempt: number) => ({
      webhook_id: webhookId,
      customer_id: customer.id,
      event_id: eventId,
      event_type: 'receivable.paid',
      attempt,
      status: 'PENDING',
      payload: '{}',
      created_at: now,
      next_attempt_at: now,
    });
    await db.knex('webhook_deliveries').insert(attempt('evt_before', 3));
    await db.knex.migrate.up({ migrationSource, name: '041-retry-schedule-steps' });
    // What an instance of the previous version writes while this one runs: no step.
    await db.knex('webhook_deliveries').insert(attempt('evt_beside', 5));

    const uow = new KnexUnitOfWork(db.knex);
    const claimed = await uow.run((tx) =>
      tx.webhookDeliveries.claimDue({ now, claimedUntil: new Date(now.getTime() + 60_000), limit: 10, perWebhook: 10, skipWebhooks: [] }),
    );
    expect(claimed.map((d) => [d.eventId, d.attempt, d.scheduleStep]).sort()).toEqual([
      ['evt_before', 3, 3],
      ['evt_beside', 5, 5],
    ]);
  });
});
