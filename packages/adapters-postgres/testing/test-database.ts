import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { createDatabase } from '../src/knex-factory';
import { migrateToLatest } from '../src/migrations';

export interface TestDatabase {
  readonly knex: Knex;
  readonly url: string;
  readonly schema: string;
  /** 'postgres' for a real server (real concurrency), 'pglite' for the embedded single backend. */
  readonly storage: 'postgres' | 'pglite';
  close(): Promise<void>;
}

/** A migrated schema of its own for one test file, on the run's database (jest-global-setup.ts). */
export async function openTestDatabase(options: { poolSize?: number; lockTimeoutMs?: number } = {}): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: tests run through jest, whose global setup provides it');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = createDatabase({ url, poolSize: 1 });
  await admin.raw(`CREATE SCHEMA ${schema}`);
  await admin.destroy();
  const storage = process.env.RCS_TEST_STORAGE === 'pglite' ? 'pglite' : 'postgres';
  // One connection to PGlite, as the service uses it (app/src/storage.ts says why).
  const poolSize = storage === 'pglite' ? 1 : (options.poolSize ?? 8);
  const knex = createDatabase({ url, schema, poolSize, lockTimeoutMs: options.lockTimeoutMs, embedded: storage === 'pglite' });
  await migrateToLatest(knex, { embedded: storage === 'pglite' });
  return {
    knex,
    url,
    schema,
    storage,
    async close() {
      await knex.raw(`DROP SCHEMA ${schema} CASCADE`);
      await knex.destroy();
    },
  };
}
