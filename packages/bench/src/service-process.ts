import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface ServiceProcess {
  readonly url: string;
  readonly child: ChildProcess;
  login(clientId?: string, clientSecret?: string): Promise<string>;
  call(method: string, route: string, token: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  /** Peak resident memory of the service so far (VmHWM), in MiB. */
  peakRssMiB(): number;
  stop(): Promise<void>;
}

const MAIN = path.join(__dirname, '..', '..', '..', 'app', 'dist', 'src', 'main.js');

/** The real service, built, in a child process: rate limit out of the way, workers off unless asked. */
export async function startService(env: Record<string, string>): Promise<ServiceProcess> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  // BENCH_SERVICE_NODE_ARGS passes flags to the service's node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it.
  const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, MAIN], {
    env: { ...process.env, PORT: String(port), RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: 'warn', WORKERS_ENABLED: 'false', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`);
    const up = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (up) break;
    if (i > 600) throw new Error('service did not start within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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
      const res = await fetch(`${url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId, clientSecret }) });
      return ((await res.json()) as { accessToken: string }).accessToken;
    },
    peakRssMiB() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
