import type { ChildProcess } from 'node:child_process';

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
