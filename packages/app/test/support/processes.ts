import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openTestDatabase } from '@rcs/adapters-postgres/testing';

const DIST = path.join(__dirname, '..', '..', 'dist', 'src');

/** The built service in a process of its own, as `npm start` runs it. */
export interface ServiceProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly exit: Promise<[number | null, NodeJS.Signals | null]>;
  /** What it wrote to stderr so far. */
  stderr(): string;
}

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  probe.close();
  return port;
}

/** Starts the service on a free port with `env` over this process's environment (an undefined value unsets). */
export async function spawnService(env: NodeJS.ProcessEnv): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(DIST, 'main.js')], {
    env: { ...process.env, LOG_LEVEL: 'warn', PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, url: `http://127.0.0.1:${port}`, exit, stderr: () => stderr };
}

/** How long a start may take: a first PGlite start is about 3 s, far longer on a machine busy with other runs. */
export const START_TIMEOUT_MS = 45_000;

/**
 * Starts the service and waits until /health answers 200. A service that does not come up in time is killed, so a
 * failed start never leaves a process behind holding its data directory.
 */
export async function startService(env: NodeJS.ProcessEnv): Promise<ServiceProcess> {
  const service = await spawnService(env);
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (
    !(await fetch(`${service.url}/health`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline || service.child.exitCode !== null) {
      service.child.kill('SIGKILL');
      throw new Error(`the service did not start:\n${service.stderr()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return service;
}

/** Storage of its own for a spawned service: a schema on the run's PostgreSQL, or embedded PGlite in a data directory. */
interface ServiceStorage {
  /** The service's environment that selects it. */
  readonly env: NodeJS.ProcessEnv;
  /** Drops it, once the service has stopped. */
  close(): Promise<void>;
}

async function serviceStorage(): Promise<ServiceStorage> {
  if (process.env.RCS_TEST_STORAGE === 'pglite') {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'rcs-service-'));
    return { env: { DATABASE_URL: undefined, DATA_DIR: dataDir }, close: () => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })) };
  }
  const db = await openTestDatabase();
  const database = new URL(db.url);
  database.searchParams.set('options', `-c search_path=${db.schema}`);
  return { env: { DATABASE_URL: database.toString() }, close: () => db.close() };
}

/** A built service on storage of its own, driven from outside as a user would; `stop` ends it and drops its storage. */
export interface OwnService {
  readonly url: string;
  readonly process: ServiceProcess;
  stop(): Promise<void>;
}

/**
 * Starts the built service on storage of its own, with `env` over this process's environment and the scheduled
 * settlement once a year: a test that collects and then runs the settlement itself must not have the schedule
 * sweep the money first.
 */
export async function startOwnService(env: NodeJS.ProcessEnv = {}): Promise<OwnService> {
  const storage = await serviceStorage();
  let service: ServiceProcess;
  try {
    service = await startService({ ...storage.env, SETTLEMENT_CRON: '0 0 1 1 *', ...env });
  } catch (error) {
    await storage.close();
    throw error;
  }
  return {
    url: service.url,
    process: service,
    async stop() {
      service.child.kill('SIGTERM');
      await service.exit;
      await storage.close();
    },
  };
}

/** Runs `npm run admin -- ...args` on the built CLI; never rejects, the exit code is in the answer. */
export function runAdmin(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(DIST, 'cli.js'), ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}
