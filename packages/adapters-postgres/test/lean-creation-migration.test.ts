import { migrationSource } from '../src/migrations';
import { openTestDatabase, type TestDatabase } from '../testing';

describe('migration 016-lean-creation', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('keeps every stored answer byte for byte, so a replay after the upgrade sends what the first answer sent', async () => {
    await db.knex.migrate.down({ migrationSource, name: '016-lean-creation' });
    const [customer] = await db.knex('customers').insert({ name: 'Upgraded', creation_date: new Date() }).returning('id');
    const [credential] = await db
      .knex('credentials')
      .insert({ customer_id: customer.id, client_id: 'upgraded', secret_hash: 'x', scopes: [], status: 'ACTIVE', creation_date: new Date() })
      .returning('id');
    // Written as the service writes it, in its key order and with an amount a double would not keep.
    const answer = '{"id":7,"amount":"12345678901234567.89","invoiceData":{"z":1,"a":[1.50]},"description":"Factura \\u00e9"}';
    const now = new Date();
    await db.knex('idempotency_keys').insert({
      credential_id: credential.id,
      key: 'before-016',
      fingerprint: 'f',
      response_status: 201,
      response_body: answer,
      response_location: '/v1/receivables/7',
      created_at: now,
      expires_at: new Date(now.getTime() + 60_000),
    });
    await db.knex.migrate.up({ migrationSource, name: '016-lean-creation' });
    const row = await db.knex('idempotency_keys').where({ key: 'before-016' }).first<{ response_body: string }>('response_body');
    expect(row?.response_body).toBe(answer);
  });
});
