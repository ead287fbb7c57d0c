import { KnexWebhookRepository } from '../src/repositories/knex-webhook-repository';
import { migrationSource } from '../src/migrations';
import { openTestDatabase, type TestDatabase } from '../testing';
import { insertWebhookRow } from './support/webhook-row';

describe('migration 021-secrets-in-grace', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('keeps the previous secret of each webhook signing until its expiry, and gives the others none; down keeps the newest', async () => {
    await db.knex.migrate.down({ migrationSource, name: '021-secrets-in-grace' });
    const [customer] = await db.knex('customers').insert({ name: 'Rotated', creation_date: new Date() }).returning('id');
    const now = new Date('2026-03-01T10:00:00.000Z');
    const expiresAt = new Date('2026-03-02T10:00:00.123Z');
    const webhook = (previous: object) => insertWebhookRow(db.knex, customer.id, now, { version: 2, ...previous });
    const [rotated, fresh] = [await webhook({ previous_secret_sealed: 'v1.before', previous_secret_expires_at: expiresAt }), await webhook({})];
    await db.knex.migrate.up({ migrationSource, name: '021-secrets-in-grace' });
    const read = (id: string) =>
      db.knex.transaction(async (trx) => (await new KnexWebhookRepository(trx).getForUpdate(Number(id)))!.toSnapshot().secrets.previous);
    expect([await read(rotated), await read(fresh)]).toEqual([[{ sealed: 'v1.before', expiresAt }], []]);

    await db.knex.migrate.down({ migrationSource, name: '021-secrets-in-grace' });
    const rows = await db.knex('webhooks').whereIn('id', [rotated, fresh]).orderBy('id').select('previous_secret_sealed', 'previous_secret_expires_at');
    expect(rows).toEqual([
      { previous_secret_sealed: 'v1.before', previous_secret_expires_at: expiresAt },
      { previous_secret_sealed: null, previous_secret_expires_at: null },
    ]);
    await db.knex.migrate.up({ migrationSource, name: '021-secrets-in-grace' });
  });
});
