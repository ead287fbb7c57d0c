import { createDatabase, migrateToLatest, migrationSource, MIGRATION_NAMES } from '@rcs/adapters-postgres';
import { itOnRealServer, openTestDatabase, type TestDatabase } from '@rcs/adapters-postgres/testing';
import pino from 'pino';
import type { Application } from '@rcs/domain';
import { loadConfig } from '../src/config';
import { buildContainer, resolveBankNotificationSecret, resolveJwtSecret, TYPES } from '../src/container';

/** Two instances starting at once on one database, as two replicas of a deployment would. */
describe('start-up of two instances together', () => {
  const itRacing = itOnRealServer('two instances starting together need two connections; PGlite has one');
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => db.close());

  itRacing('both finish migrating an empty database, whichever creates the migration bookkeeping first', async () => {
    // The race is over a few milliseconds of catalog writes: several empty schemas give it several chances.
    for (let attempt = 0; attempt < 8; attempt++) {
      const schema = `${db.schema}_empty_${attempt}`;
      await db.knex.raw(`CREATE SCHEMA ${schema}`);
      const instances = [0, 1].map(() => createDatabase({ url: db.url, schema, poolSize: 2 }));
      try {
        await Promise.all(instances.map((knex) => migrateToLatest(knex)));
        expect(await instances[0]('knex_migrations').orderBy('id').pluck('name')).toEqual(MIGRATION_NAMES);
      } finally {
        await Promise.all(instances.map((knex) => knex.destroy()));
        await db.knex.raw(`DROP SCHEMA ${schema} CASCADE`);
      }
    }
  });

  itRacing("migrates after an instance died half-way through migrating, which left knex's lock taken", async () => {
    const schema = `${db.schema}_crashed`;
    await db.knex.raw(`CREATE SCHEMA ${schema}`);
    const knex = createDatabase({ url: db.url, schema, poolSize: 2 });
    try {
      await migrateToLatest(knex);
      // What a migrator killed during the last migration leaves: that migration rolled back, the lock row set.
      await knex.migrate.down({ migrationSource });
      await knex('knex_migrations_lock').update({ is_locked: 1 });
      await migrateToLatest(knex);
      expect(await knex('knex_migrations').orderBy('id').pluck('name')).toEqual(MIGRATION_NAMES);
      expect(await knex('knex_migrations_lock').pluck('is_locked')).toEqual([0]);
    } finally {
      await knex.destroy();
      await db.knex.raw(`DROP SCHEMA ${schema} CASCADE`);
    }
  });

  itRacing("migrates once, agrees on one JWT secret and one secret of the simulator's notifications, and bootstraps each sandbox customer once", async () => {
    const config = loadConfig({ APP_MODE: 'sandbox' });
    const instances = [0, 1].map(() => createDatabase({ url: db.url, schema: db.schema, poolSize: 4, embedded: db.storage === 'pglite' }));
    try {
      await Promise.all(instances.map((knex) => migrateToLatest(knex)));
      const secrets = await Promise.all(instances.map((knex) => resolveJwtSecret(config, knex)));
      expect(secrets[0]).toBe(secrets[1]);
      const notificationSecrets = await Promise.all(instances.map((knex) => resolveBankNotificationSecret(config, knex)));
      expect(notificationSecrets[1]).toBe(notificationSecrets[0]);
      expect(notificationSecrets[0]).toMatch(/^[0-9a-f]{64}$/);
      const apps = instances.map((knex, i) =>
        buildContainer(config, pino({ level: 'silent' }), knex, {
          jwtSecret: secrets[i],
          bankProviderUrl: 'http://127.0.0.1:4010',
          webhookSecretKey: 'w'.repeat(40),
        }).get<Application>(TYPES.Application),
      );
      await Promise.all(
        apps.flatMap((app) =>
          config.sandboxCredentials.map((s) =>
            app.customers.ensureSandbox.execute({ name: s.customerName, clientId: s.clientId, clientSecret: s.clientSecret }),
          ),
        ),
      );
      const count = async (table: string) => Number((await db.knex(table).count({ n: '*' }))[0].n);
      expect(await count('customers')).toBe(2);
      expect(await count('current_accounts')).toBe(4);
      expect(await count('credentials')).toBe(2);
      const applied = await db.knex('knex_migrations').pluck('name');
      expect(applied).toEqual([...new Set(applied)]);
      expect(applied).toEqual(MIGRATION_NAMES);
    } finally {
      await Promise.all(instances.map((knex) => knex.destroy()));
    }
  });
});
