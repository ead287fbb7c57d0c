import { readFileSync } from 'node:fs';
import { itOnRealServer, openTestDatabase, type TestDatabase } from '@rcs/adapters-postgres/testing';
import { workerConfig } from '../src/cluster';
import { loadConfig } from '../src/config';
import { startService, type ServiceProcess } from './support/processes';

/** The service's HTTP_WORKERS processes: the primary forks them and shares one port. */
describe('HTTP workers', () => {
  const itWithWorkers = itOnRealServer('embedded PGlite belongs to one process; HTTP workers need a PostgreSQL server');
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => db.close());

  function start(): Promise<ServiceProcess> {
    const database = new URL(db.url);
    database.searchParams.set('options', `-c search_path=${db.schema}`);
    return startService({ DATABASE_URL: database.toString(), HTTP_WORKERS: '2', WORKERS_ENABLED: 'false' });
  }

  const workersOf = (pid: number) => readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number);

  itWithWorkers('serves from two processes on one port, answers /metrics for both, and stops cleanly on SIGTERM', async () => {
    const { child, url, exit } = await start();
    expect(workersOf(child.pid!)).toHaveLength(2);
    const login = await fetch(`${url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${url}/v1/me`, { headers: { authorization: `Bearer ${accessToken}` } }).then((r) => r.status)),
    );
    expect(answers).toEqual(Array(20).fill(200));
    // Whichever worker a scrape reaches answers for the service: every worker's requests, summed by the primary.
    for (let scrape = 0; scrape < 3; scrape++) {
      expect(await (await fetch(`${url}/metrics`)).text()).toMatch(/^rcs_http_requests_total\{method="GET",route="\/v1\/me",status="200"\} 20$/m);
    }
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
