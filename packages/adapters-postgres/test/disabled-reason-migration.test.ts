import { migrationSource } from '../src/migrations';
import { openTestDatabase, type TestDatabase } from '../testing';
import { insertAccountRow } from './support/account-row';

describe('migration 007-disabled-reason', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  /** An account as the schema before 007 holds it. */
  const accountBefore = (customerId: number, n: number, status: string, lastError: string | null) =>
    insertAccountRow(db.knex, customerId, n, { status, last_provisioning_error: lastError });

  it('gives each account already DISABLED the reason the provisioning worker noted, else the customer', async () => {
    await db.knex.migrate.down({ migrationSource, name: '007-disabled-reason' });
    const [customer] = await db.knex('customers').insert({ name: 'Migrated', creation_date: new Date() }).returning('id');
    const ids = [
      await accountBefore(customer.id, 1, 'DISABLED', 'rejected by the provider: holder blocked'),
      await accountBefore(customer.id, 2, 'DISABLED', 'gave up after 8 failed attempts; last: TIMEOUT'),
      await accountBefore(customer.id, 3, 'DISABLED', 'external-provider-unavailable: provider answered 503'),
      await accountBefore(customer.id, 4, 'DISABLED', null),
      await accountBefore(customer.id, 5, 'ACTIVE', null),
    ];
    await db.knex.migrate.up({ migrationSource, name: '007-disabled-reason' });
    const rows = await db.knex('receivable_accounts').whereIn('id', ids).orderBy('id').select('disabled_reason', 'disabled_message');
    expect(rows).toEqual([
      { disabled_reason: 'PROVIDER_REJECTED', disabled_message: 'holder blocked' },
      { disabled_reason: 'PROVISIONING_RETRIES_EXHAUSTED', disabled_message: null },
      { disabled_reason: 'DISABLED_BY_CUSTOMER', disabled_message: null },
      { disabled_reason: 'DISABLED_BY_CUSTOMER', disabled_message: null },
      { disabled_reason: null, disabled_message: null },
    ]);
  });

  it('refuses a DISABLED account without a reason, and a reason on one that is not DISABLED', async () => {
    const [customer] = await db.knex('customers').insert({ name: 'Checked', creation_date: new Date() }).returning('id');
    const id = await accountBefore(customer.id, 6, 'ACTIVE', null);
    await expect(db.knex('receivable_accounts').where({ id }).update({ status: 'DISABLED' })).rejects.toThrow(/receivable_accounts_disabled_reason/);
    await expect(db.knex('receivable_accounts').where({ id }).update({ disabled_reason: 'DISABLED_BY_CUSTOMER' })).rejects.toThrow(
      /receivable_accounts_disabled_reason/,
    );
  });
});
