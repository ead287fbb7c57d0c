import { EXPIRED_REASON, LOST_ATTEMPT } from '@rcs/domain';
import { migrationSource } from '../src/migrations';
import { openTestDatabase, type TestDatabase } from '../testing';
import { insertWebhookRow } from './support/webhook-row';

describe('migration 047-attempts-keep-their-place', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('gives each attempt made before it its send time (then its created_at), and none to those pending or ended unsent', async () => {
    await db.knex.migrate.down({ migrationSource, name: '047-attempts-keep-their-place' });
    const now = new Date('2026-03-01T10:00:00.000Z');
    const [customer] = await db.knex('customers').insert({ name: 'Attempted', creation_date: now }).returning('id');
    const webhookId = await insertWebhookRow(db.knex, customer.id, now);
    const ended = (eventId: string, status: string, failureReason: string | null) => ({
      webhook_id: webhookId,
      customer_id: customer.id,
      event_id: eventId,
      event_type: 'receivable.paid',
      attempt: 1,
      status,
      failure_reason: failureReason,
      payload: '{}',
      created_at: now,
    });
    await db
      .knex('webhook_deliveries')
      .insert([
        ended('evt_delivered', 'SUCCESS', null),
        ended('evt_refused', 'FAILED', 'the endpoint answered 500'),
        ended('evt_lost', 'FAILED', LOST_ATTEMPT.failureReason),
        ended('evt_expired', 'FAILED', EXPIRED_REASON),
        ended('evt_held', 'PENDING', null),
      ]);
    await db.knex.migrate.up({ migrationSource, name: '047-attempts-keep-their-place' });
    const rows = await db.knex('webhook_deliveries').where({ webhook_id: webhookId }).orderBy('event_id').select('event_id', 'created_at', 'attempted_at');
    expect(rows.map((row) => [row.event_id, row.created_at, row.attempted_at])).toEqual([
      ['evt_delivered', now, now],
      ['evt_expired', now, null],
      ['evt_held', now, null],
      ['evt_lost', now, null],
      ['evt_refused', now, now],
    ]);
  });
});
