import { migrateToLatest, migrationSource } from '../src/migrations';
import { itOnRealServer, openTestDatabase, waitForLockWaiters, type TestDatabase } from '../testing';
import { insertAccountRow } from './support/account-row';

describe('migrations 028-maintained-pending-amounts and 032-pending-amounts-as-sums', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: 4 });
  });
  afterAll(async () => db?.close());

  const receivable = (customerId: number, accountId: number, type: string, status: string, amountMinor: number) => ({
    customer_id: customerId,
    receivable_account_id: accountId,
    amount_minor: amountMinor,
    currency_code: 'ARS',
    receivable_type: type,
    status,
    receivable_date: '2026-03-01',
    creation_date: new Date(),
    modification_date: new Date(),
    version: 1,
  });

  /** The account's PENDING amount as list_counts holds it. */
  const kept = async (accountId: number) =>
    (await db.knex('list_counts').where({ list: 'receivables', scope: 'account', scope_id: accountId, status: 'PENDING' }).sum({ amount: 'amount_minor' }))[0]
      .amount;

  it('sums the amounts of the receivables already held, and keeps them from then on', async () => {
    // Signed by type, as 028 kept them; 032 sums them as they are (below).
    await db.knex.migrate.down({ migrationSource, name: '032-pending-amounts-as-sums' });
    await db.knex.migrate.down({ migrationSource, name: '028-maintained-pending-amounts' });
    const [customer] = await db.knex('customers').insert({ name: 'Migrated', creation_date: new Date() }).returning('id');
    const account = await insertAccountRow(db.knex, customer.id, 1, { status: 'ACTIVE' });
    await db
      .knex('receivables')
      .insert([
        receivable(customer.id, account, 'INVOICE', 'PENDING', 1_000),
        receivable(customer.id, account, 'DEBT', 'PENDING', 500),
        receivable(customer.id, account, 'RETENTION', 'PENDING', 300),
        receivable(customer.id, account, 'INVOICE', 'PAID', 7_000),
      ]);
    await db.knex.migrate.up({ migrationSource, name: '028-maintained-pending-amounts' });
    expect(await kept(account)).toBe('1200');
    await db.knex('receivables').insert(receivable(customer.id, account, 'CREDIT_NOTE', 'PENDING', 200));
    await db.knex('receivables').where({ receivable_account_id: account, status: 'PAID' }).update({ status: 'PENDING' });
    expect(await kept(account)).toBe('8000');
    // 032: every amount positive whatever its type, the receivables already held summed again.
    await db.knex.migrate.up({ migrationSource, name: '032-pending-amounts-as-sums' });
    expect(await kept(account)).toBe(String(1_000 + 500 + 300 + 200 + 7_000));
    await db.knex('receivables').insert(receivable(customer.id, account, 'RETENTION', 'PENDING', 50));
    expect(await kept(account)).toBe('9050');
    await db.knex.migrate.down({ migrationSource, name: '032-pending-amounts-as-sums' });
    expect(await kept(account)).toBe(String(1_000 + 500 - 300 - 200 + 7_000 - 50));
    await db.knex.migrate.up({ migrationSource, name: '032-pending-amounts-as-sums' });
  });

  itOnRealServer('a writer racing the migration needs a second connection; PGlite has one')(
    'is run again when it deadlocks with a writer that holds the counts and then writes receivables',
    async () => {
      // 032 holds off writers and sums as 028 does: both are undone, so the migration run meets the writer in 028's
      // ALTER and then runs 032 too.
      await db.knex.migrate.down({ migrationSource, name: '032-pending-amounts-as-sums' });
      await db.knex.migrate.down({ migrationSource, name: '028-maintained-pending-amounts' });
      // A transaction that wrote a counted table (the settlement cycle's settlements) holds list_counts...
      const writer = await db.knex.transaction();
      const { rows } = await writer.raw<{ rows: Array<{ pid: number }> }>('SELECT pg_backend_pid() AS pid');
      await writer.raw('UPDATE list_counts SET n = n WHERE false');
      // ...the migration locks receivables and waits for list_counts...
      const migrating = migrateToLatest(db.knex);
      await waitForLockWaiters(db.knex, 1, rows[0].pid);
      // ...and the writer goes on to receivables: a deadlock, whose victim (the migration, which waited first) is
      // rolled back; the writer commits.
      await writer.raw('UPDATE receivables SET version = version WHERE false');
      await writer.commit();
      await migrating;
      const { rows: columns } = await db.knex.raw<{ rows: unknown[] }>(
        `SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'list_counts' AND column_name = 'amount_minor'`,
      );
      expect(columns).toHaveLength(1);
      // The first test's account: its amounts summed as they are, not signed (032 ran after 028).
      const [{ amount }] = await db.knex('list_counts').where({ list: 'receivables', scope: 'account', status: 'PENDING' }).sum({ amount: 'amount_minor' });
      const [{ total }] = await db.knex('receivables').where({ status: 'PENDING' }).sum({ total: 'amount_minor' });
      expect(amount).toBe(total);
    },
  );
});
