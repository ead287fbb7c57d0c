import { openTestDatabase, type TestDatabase } from '@rcs/adapters-postgres/testing';
import { ConfigError, SANDBOX_CUSTOMER_NAMES } from '../src/config';
import { checkDatabaseMode } from '../src/database-mode';

describe('the mode a database serves', () => {
  const databases: TestDatabase[] = [];
  const freshDatabase = async () => {
    const db = await openTestDatabase();
    databases.push(db);
    return db.knex;
  };
  afterAll(async () => Promise.all(databases.map((db) => db.close())));

  it("is the first start's: production refuses the sandbox's database, whose credentials are public, and the sandbox production's", async () => {
    const sandboxes = await freshDatabase();
    await checkDatabaseMode(sandboxes, 'sandbox');
    await checkDatabaseMode(sandboxes, 'sandbox');
    await expect(checkDatabaseMode(sandboxes, 'production')).rejects.toThrow(
      new ConfigError(
        "DATABASE_URL names a database the sandbox set up, holding the sandbox's customers and their credentials: production needs a database of its own",
      ),
    );
    const production = await freshDatabase();
    await checkDatabaseMode(production, 'production');
    await expect(checkDatabaseMode(production, 'sandbox')).rejects.toThrow(/DATABASE_URL names a production database/);
    await checkDatabaseMode(production, 'production');
  });

  it('takes a database set up before the mark for the sandbox’s by its customers, else for production’s if it has any', async () => {
    const unmarked = await freshDatabase();
    await unmarked('customers').insert({ name: SANDBOX_CUSTOMER_NAMES[0], creation_date: new Date() });
    await expect(checkDatabaseMode(unmarked, 'production')).rejects.toThrow(/the sandbox set up/);
    await checkDatabaseMode(unmarked, 'sandbox');
    // A production database first started after the upgrade in the default mode (sandbox) by mistake is not taken over.
    const production = await freshDatabase();
    await production('customers').insert({ name: 'Acme Corp', creation_date: new Date() });
    await expect(checkDatabaseMode(production, 'sandbox')).rejects.toThrow(/a production database/);
    await checkDatabaseMode(production, 'production');
  });
});
