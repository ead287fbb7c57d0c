import { fork, type ChildProcess } from 'node:child_process';
import type { Server } from 'node:net';

const running = new Set<ChildProcess>();

/**
 * A started child (the service, a baseline's or the floor's server), stopped when the bench exits however it
 * exits: one left running would keep its port and its database connections.
 */
export function tracked<T extends ChildProcess>(child: T): T {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

process.once('exit', () => {
  for (const child of running) child.kill('SIGTERM');
});

/** One of the bench's own HTTP servers (a compiled script of this folder that calls `listenForBench`), forked. */
export async function forkServer(script: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = tracked(fork(script, [], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before it listened`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

/** In a server forked by forkServer (an Express app, an HTTPS server): listens on a free port and tells the bench which. */
export function listenForBench(app: { listen(port: number, host: string, listening: () => void): Server }): void {
  const server = app.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  });
}
