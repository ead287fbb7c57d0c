import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';

declare global {
  var __embeddedPostgres: ChildProcess | undefined;
}

/**
 * Gives the whole run one database and exports it as DATABASE_URL to the workers:
 * - with DATABASE_URL: a fresh database on that server, dropped at the end;
 * - without it: an in-memory PGlite in a child process (PGlite cannot load inside jest).
 * Each test file then works in its own schema (see test-database.ts).
 */
export default async function setup(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `rcs_test_${Date.now()}_${process.pid}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    process.env.RCS_TEST_SERVER_URL = serverUrl;
    process.env.RCS_TEST_DATABASE = name;
    process.env.DATABASE_URL = url.toString();
    process.env.RCS_TEST_STORAGE = 'postgres';
    return;
  }
  const script = path.join(__dirname, '..', 'dist', 'src', 'serve-embedded.js');
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
  globalThis.__embeddedPostgres = child;
  const lines = createInterface({ input: child.stdout });
  const ready = (async () => {
    for await (const line of lines) if (line.startsWith('READY ')) return line.slice(6);
    throw new Error('embedded PostgreSQL exited before it was ready');
  })();
  const exited = once(child, 'exit').then(() => {
    throw new Error('embedded PostgreSQL exited before it was ready (is the project built? npm run build)');
  });
  process.env.DATABASE_URL = await Promise.race([ready, exited]);
  process.env.RCS_TEST_STORAGE = 'pglite';
}
