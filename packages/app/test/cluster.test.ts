import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { itOnRealServer, openTestDatabase, type TestDatabase } from '@rcs/adapters-postgres/testing';
import { workerConfig } from '../src/cluster';
import { loadConfig } from '../src/config';

const MAIN = path.join(__dirname, '..', 'dist', 'src', 'main.js');

/** The service's HTTP_WORKERS processes: the primary forks them and shares one port. */
describe('HTTP workers', () => {
  const itWithWorkers = itOnRealServer('embedded PGlite belongs to one process; HTTP workers need a PostgreSQL server');
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => db.close());

  async function start(): Promise<{ child: ChildProcess; url: string; exit: Promise<[number | null, NodeJS.Signals | null]> }> {
    const database = new URL(db.url);
    database.searchParams.set('options', `-c search_path=${db.schema}`);
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as AddressInfo;
    probe.close();
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, DATABASE_URL: database.toString(), HTTP_WORKERS: '2', PORT: String(port), LOG_LEVEL: 'warn', WORKERS_ENABLED: 'false' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; !(await fetch(`${url}/health`).then((r) => r.ok, () => false)); i++) {
      if (i > 300 || child.exitCode !== null) throw new Error('the service did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { child, url, exit };
  }

  const workersOf = (pid: number) => readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number);

  itWithWorkers('serves from two processes on one port and stops cleanly on SIGTERM', async () => {
    const { child, url, exit } = await start();
    expect(workersOf(child.pid!)).toHaveLength(2);
    const login = await fetch(`${url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${url}/v1/me`, { headers: { authorization: `Bearer ${accessToken}` } }).then((r) => r.status)));
    expect(answers).toEqual(Array(20).fill(200));
    child.kill('SIGTERM');
    expect(await exit).toEqual([0, null]);
  });

  it('gives each worker its share of the rate limit, and background jobs to the first one only', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://db', HTTP_WORKERS: '3', RATE_LIMIT_PER_MINUTE: '1000' });
    const share = { perCredential: 334, perSource: 40, loginPerSource: 7 };
    expect([1, 2, 3].map((id) => workerConfig(config, id)).map((c) => [c.rateLimits, c.workersEnabled])).toEqual([
      [share, true],
      [share, false],
      [share, false],
    ]);
  });

  itWithWorkers('stops the whole service, exit code 1, when one worker dies', async () => {
    const { child, exit } = await start();
    process.kill(workersOf(child.pid!)[0], 'SIGKILL');
    expect(await exit).toEqual([1, null]);
  });
});
