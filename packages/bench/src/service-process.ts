import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { tracked } from './children';
import { processTree, treeCpuSeconds } from './cpu';

export interface ServiceProcess {
  readonly url: string;
  readonly child: ChildProcess;
  login(clientId?: string, clientSecret?: string): Promise<string>;
  call(method: string, route: string, token: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: unknown }>;
  /** Peak resident memory of the service so far (VmHWM), of the largest of its processes, in MiB. */
  peakRssMiB(): number;
  /** CPU time the service's processes (the primary and its HTTP workers) have used so far, in seconds. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

const MAIN = path.join(__dirname, '..', '..', '..', 'app', 'dist', 'src', 'main.js');

/**
 * The node flags `npm start` gives the service (the root package.json), so the bench measures it as it is started.
 * A start script of another shape stops the bench rather than letting it measure the service without them.
 */
function startFlags(): string[] {
  const root = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as { scripts: { start: string } };
  const shape = /exec node ((?:--[\w-]+=\S+ )*)packages\/app\/dist\/src\/main\.js$/.exec(root.scripts.start);
  if (!shape) throw new Error(`the start script is not "... exec node [--flag=value ...] packages/app/dist/src/main.js": ${root.scripts.start}`);
  return shape[1].split(' ').filter(Boolean);
}

/** A port nobody listens on right now, from the OS (a random pick can land on a load generator's client port). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Spawns the service on a free port and waits for /health; undefined if it exited first (the port was taken). */
async function spawnService(env: Record<string, string>): Promise<{ child: ChildProcess; url: string } | undefined> {
  const port = await freePort();
  // BENCH_SERVICE_NODE_ARGS passes flags to the service's node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it.
  const nodeArgs = [...startFlags(), ...(process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const child = tracked(
    spawn(process.execPath, [...nodeArgs, MAIN], {
      env: {
        ...process.env,
        PORT: String(port),
        RATE_LIMIT_PER_MINUTE: '100000000',
        SOURCE_RATE_LIMIT_PER_MINUTE: '100000000',
        LOGIN_RATE_LIMIT_PER_MINUTE: '100000000',
        LOG_LEVEL: 'warn',
        WORKERS_ENABLED: 'false',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) return undefined;
    if (
      await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, url };
    if (i > 600) throw new Error('service did not start within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The real service, built, in a child process: rate limit out of the way, workers off unless asked. */
export async function startService(env: Record<string, string>): Promise<ServiceProcess> {
  let started: { child: ChildProcess; url: string } | undefined;
  for (let attempt = 1; !started; attempt++) {
    started = await spawnService(env);
    if (!started && attempt === 3) throw new Error('service exited before it was ready, three times');
  }
  const { child, url } = started;
  const call: ServiceProcess['call'] = async (method, route, token, body, headers = {}) => {
    const res = await fetch(`${url}${route}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json().catch(() => null) };
  };
  return {
    url,
    child,
    call,
    async login(clientId = 'sandbox-client', clientSecret = 'sandbox-secret') {
      const res = await fetch(`${url}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId, clientSecret }),
      });
      return ((await res.json()) as { accessToken: string }).accessToken;
    },
    cpuSeconds() {
      return treeCpuSeconds(child.pid!);
    },
    peakRssMiB() {
      const peak = (pid: number) => {
        try {
          return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
        } catch {
          return 0; // it exited meanwhile
        }
      };
      return Math.max(...processTree(child.pid!).map(peak));
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
