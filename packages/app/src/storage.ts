import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import { createDatabase, databaseReady, type EmbeddedPostgres, migrateToLatest, startEmbeddedPostgres } from '@rcs/adapters-postgres';
import type { Config } from './config';
import { lockDataDir, lockHolder } from './data-dir-lock';

export interface Storage {
  readonly knex: Knex;
  readonly embedded: boolean;
  close(): Promise<void>;
}

/**
 * One connection to PGlite. It is a single backend anyway, and its socket queues each protocol message on its
 * own: statements sent at once on two connections interleave, and one's unnamed prepared statement replaces the
 * other's ("unnamed prepared statement does not exist"). The code never waits on a second connection while
 * holding one, so a pool of one cannot deadlock.
 */
export const EMBEDDED_POOL_SIZE = 1;

const endpointFile = (dataDir: string) => path.join(dataDir, 'embedded-endpoint.json');

/**
 * The database of this process, migrated: DATABASE_URL's server, or PGlite persisted in DATA_DIR. The embedded
 * data dir belongs to one process (it is locked, see data-dir-lock.ts), so the service publishes its socket
 * address there; the admin CLI uses it while the service runs (`reuseRunning`) and opens the directory itself
 * otherwise.
 */
export async function openStorage(config: Config, options: { reuseRunning?: boolean } = {}): Promise<Storage> {
  if (config.databaseUrl) {
    const knex = createDatabase({ url: config.databaseUrl, poolSize: config.dbPoolSize });
    await migrateToLatest(knex);
    return { knex, embedded: false, close: () => knex.destroy() };
  }
  if (options.reuseRunning) {
    const running = await runningEmbedded(config.dataDir);
    if (running) return { knex: running, embedded: true, close: () => running.destroy() };
  }
  await mkdir(config.dataDir, { recursive: true });
  // Before PGlite opens the files: a second process gets no further, so it neither runs on them nor removes the
  // endpoint file of the one that holds them.
  const lock = await lockDataDir(config.dataDir);
  // A failed start must not keep the directory locked for the rest of this process.
  const { embedded, knex } = await startMigrated(config.dataDir).catch(async (error: unknown) => {
    await lock.release();
    throw error;
  });
  // Holding the lock, this process is the only one alive on the directory: an endpoint file left here is a
  // killed holder's, and the service replaces it with its own.
  if (options.reuseRunning) await rm(endpointFile(config.dataDir), { force: true });
  else await writeFile(endpointFile(config.dataDir), JSON.stringify({ url: embedded.url, pid: process.pid }));
  return {
    knex,
    embedded: true,
    async close() {
      await knex.destroy();
      await embedded.stop();
      if (!options.reuseRunning) await rm(endpointFile(config.dataDir), { force: true });
      await lock.release();
    },
  };
}

async function startMigrated(dataDir: string): Promise<{ embedded: EmbeddedPostgres; knex: Knex }> {
  const embedded = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pglite'), maxConnections: 4 });
  const knex = createDatabase({ url: embedded.url, poolSize: EMBEDDED_POOL_SIZE, embedded: true });
  try {
    await migrateToLatest(knex, { embedded: true });
  } catch (error) {
    await knex.destroy();
    await embedded.stop();
    throw error;
  }
  return { embedded, knex };
}

/**
 * The running service's database, if the endpoint file is that service's. A SIGKILLed service leaves its file
 * behind, pointing at a loopback port another embedded service (another DATA_DIR) may have taken since: only the
 * live holder of this directory's lock, whose pid the file names, makes the file trustworthy.
 */
async function runningEmbedded(dataDir: string): Promise<Knex | undefined> {
  const published = await readFile(endpointFile(dataDir), 'utf8').catch(() => undefined);
  if (!published) return undefined;
  const { url, pid } = JSON.parse(published) as { url: string; pid: number };
  const holder = await lockHolder(dataDir);
  if (!holder.alive || holder.pid !== pid) return undefined;
  const knex = createDatabase({ url, poolSize: EMBEDDED_POOL_SIZE, embedded: true });
  if (await databaseReady(knex)) return knex;
  await knex.destroy();
  return undefined;
}
