import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { progress } from './stats';

/** What a run interrupted by a signal must still undo, by name: the databases it made, the embedded data directory. */
const leftovers = new Map<string, () => unknown>();

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    progress(`${signal}: dropping what this run made, then stopping`);
    // Exiting stops the child processes (children.ts).
    // eslint-disable-next-line @typescript-eslint/require-await -- async turns an undo's throw (rmSync) into a rejection allSettled waits out
    void Promise.allSettled([...leftovers.values()].map(async (undo) => undo())).then(() => process.exit(code));
  });
}

async function dropDatabase(admin: pg.Client, name: string): Promise<void> {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/** `work` on a database of its own on the server, made fresh and dropped after, also when the run is interrupted. */
export async function withDatabase<T>(serverUrl: string, name: string, work: (url: string) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await dropDatabase(admin, name);
  await admin.query(`CREATE DATABASE ${name}`);
  leftovers.set(name, () => dropDatabase(admin, name));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    return await work(url.toString());
  } finally {
    await dropDatabase(admin, name);
    leftovers.delete(name);
    await admin.end();
  }
}

/** `work` on a fresh temporary directory (an embedded database's), removed after, also when the run is interrupted. */
export async function withDataDir<T>(work: (dataDir: string) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rcs-bench-'));
  const remove = () => rmSync(dataDir, { recursive: true, force: true });
  leftovers.set(dataDir, remove);
  try {
    return await work(dataDir);
  } finally {
    remove();
    leftovers.delete(dataDir);
  }
}
