import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { migrationSource } from '../src/migrations';
import { openTestDatabase, type TestDatabase } from '../testing';

describe('migration 012-events', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('leaves every event stored before it pending for the dispatcher: none of them was ever sent', async () => {
    await db.knex.migrate.down({ migrationSource, name: '012-events' });
    const [customer] = await db.knex('customers').insert({ name: 'Migrated', creation_date: new Date() }).returning('id');
    const occurredAt = new Date('2026-03-01T10:00:00.000Z');
    await db.knex('outbox_events').insert(
      ['evt_before1', 'evt_before2'].map((id) => ({
        id,
        customer_id: customer.id,
        type: 'receivable.created',
        data: '{"receivable":{}}',
        occurred_at: occurredAt,
      })),
    );
    await db.knex.migrate.up({ migrationSource, name: '012-events' });
    const claimed = await new KnexUnitOfWork(db.knex).run((tx) => tx.eventFeed.claimPending(10));
    expect(claimed.map((e) => e.id)).toEqual(['evt_before1', 'evt_before2']);
  });
});
