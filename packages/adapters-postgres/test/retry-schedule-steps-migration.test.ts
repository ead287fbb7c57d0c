import { migrationSource } from '../src/migrations';
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

  it('gives the pending attempts of events the step their number gave them, and test deliveries and ended ones none', async () => {
    await db.knex.migrate.down({ migrationSource, name: '041-retry-schedule-steps' });
    const now = new Date('2026-03-01T10:00:00.000Z');
    const [customer] = await db.knex('customers').insert({ name: 'Stepped', creation_date: now }).returning('id');
    const webhookId = await insertWebhookRow(db.knex, customer.id, now);
    const attempt = (eventId: string, attempt: number, fields: object) =>
      db
        .knex('webhook_deliveries')
        .insert({
          webhook_id: webhookId,
          customer_id: customer.id,
          event_id: eventId,
          event_type: 'receivable.paid',
          attempt,
          payload: '{}',
          created_at: now,
          ...fields,
        })
        .returning('id')
        .then(([row]) => row.id as string);
    const due = await attempt('evt_due', 3, { status: 'PENDING', next_attempt_at: now });
    const leased = await attempt('evt_leased', 2, { status: 'PENDING', claimed_until: now });
    const held = await attempt('evt_held', 5, { status: 'PENDING' });
    const ended = await attempt('evt_ended', 1, { status: 'FAILED', response_code: 500 });
    const test = await attempt('evt_test', 1, { status: 'PENDING', claimed_until: now, event_type: 'webhook.test' });

    await db.knex.migrate.up({ migrationSource, name: '041-retry-schedule-steps' });
    const steps = await db.knex('webhook_deliveries').whereIn('id', [due, leased, held, ended, test]).orderBy('id').pluck('schedule_step');
    expect(steps).toEqual([3, 2, 5, null, null]);
  });
});
