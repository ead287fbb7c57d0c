import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { lockDataDir } from '../src/data-dir-lock';
import { runAdmin, spawnService, START_TIMEOUT_MS, startService, type ServiceProcess } from './support/processes';

/** `npm start` without DATABASE_URL: PGlite in DATA_DIR, which belongs to one process at a time. */
describe('one process per embedded data directory', () => {
  let dataDir: string;
  let holder: ServiceProcess;
  const embedded = () => ({ DATABASE_URL: undefined, DATA_DIR: dataDir, WORKERS_ENABLED: 'false' });
  const endpoint = () => JSON.parse(readFileSync(path.join(dataDir, 'embedded-endpoint.json'), 'utf8')) as { url: string; pid: number };
  const inUse = () => `the data directory ${dataDir} is in use by process ${holder.child.pid}`;

  /** Starts a second service on the directory: its exit code, or 'still running' after 10 s (then it is killed). */
  async function secondStart(): Promise<{ code: number | null | 'still running'; stderr: string }> {
    const second = await spawnService(embedded());
    const timeout = new Promise<['still running']>((resolve) => setTimeout(() => resolve(['still running']), 10_000).unref());
    const [code] = await Promise.race([second.exit, timeout]);
    if (code === 'still running') {
      second.child.kill('SIGKILL');
      await second.exit;
    }
    return { code, stderr: second.stderr() };
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'rcs-data-'));
    holder = await startService(embedded());
  }, START_TIMEOUT_MS + 5_000);
  afterAll(async () => {
    holder?.child.kill('SIGKILL');
    await holder?.exit;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a second service on the directory at once, naming the directory and the pid that holds it', async () => {
    const second = await secondStart();
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(inUse());
  });

  it('leaves the first service serving, its endpoint file in place, after refusing a second', async () => {
    await secondStart();
    expect(endpoint().pid).toBe(holder.child.pid);
    expect((await fetch(`${holder.url}/health`)).status).toBe(200);
  });

  it("lets the admin CLI use the running service's database instead of opening the files", async () => {
    const listed = await runAdmin(['customers', 'list'], embedded());
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).map((c: { name: string }) => c.name)).toEqual(['Sandbox Customer 1', 'Sandbox Customer 2']);
  });

  describe("an endpoint file left by a killed service, pointing at this service's database", () => {
    let staleDir: string;
    // Each command on the stale directory creates and migrates a fresh embedded database: a service start's time.
    const inStaleDir = (...args: string[]) => runAdmin(args, { DATABASE_URL: undefined, DATA_DIR: staleDir });
    const namesHere = async () => {
      const listed = await runAdmin(['customers', 'list'], embedded());
      return JSON.parse(listed.stdout).map((c: { name: string }) => c.name) as string[];
    };

    beforeEach(() => {
      staleDir = mkdtempSync(path.join(tmpdir(), 'rcs-data-'));
      // The killed service's pid is not the holder of staleDir's lock (nobody holds it); its port is now this service's.
      writeFileSync(path.join(staleDir, 'embedded-endpoint.json'), JSON.stringify({ url: endpoint().url, pid: holder.child.pid }));
    });
    afterEach(() => rmSync(staleDir, { recursive: true, force: true }));

    it(
      "is not used by the admin CLI: a command on that directory leaves the other service's database untouched",
      async () => {
        const created = await inStaleDir('customers', 'create', '--name', 'Stray Corp');
        expect(created.code).toBe(0);
        expect(await namesHere()).not.toContain('Stray Corp');
      },
      START_TIMEOUT_MS,
    );

    it(
      'is removed by the admin CLI once it holds the directory',
      async () => {
        expect((await inStaleDir('customers', 'list')).code).toBe(0);
        expect(existsSync(path.join(staleDir, 'embedded-endpoint.json'))).toBe(false);
      },
      START_TIMEOUT_MS,
    );
  });

  it(
    'starts on the directory after its service was killed with SIGKILL, and takes over its endpoint file',
    async () => {
      holder.child.kill('SIGKILL');
      await holder.exit;
      holder = await startService(embedded());
      expect(endpoint().pid).toBe(holder.child.pid);
      expect((await fetch(`${holder.url}/health`)).status).toBe(200);
    },
    START_TIMEOUT_MS + 5_000,
  );
});

describe('the admin CLI on an embedded data directory', () => {
  it('refuses to open the files itself while another process holds them, naming the directory and that pid', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'rcs-data-'));
    const lock = await lockDataDir(dataDir);
    try {
      const run = await runAdmin(['ledger', 'verify'], { DATABASE_URL: undefined, DATA_DIR: dataDir });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`the data directory ${dataDir} is in use by process ${process.pid}`);
    } finally {
      await lock.release();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('opening embedded storage that fails to start', () => {
  it('releases the directory, so the same process can lock it again instead of finding it in use by itself', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'rcs-data-'));
    // A file where PGlite's directory should be: the start fails after the lock was taken.
    writeFileSync(path.join(dataDir, 'pglite'), '');
    try {
      const script = path.join(__dirname, 'support', 'failed-open-child.js');
      const { stdout } = await promisify(execFile)(process.execPath, [script], { env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir } });
      expect(stdout).toBe('open failed\nlocked\n');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
