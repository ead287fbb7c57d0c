import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import type { Measurement } from './stats';

/**
 * user + system CPU seconds of one process (fields 14 and 15 of /proc/<pid>/stat, after the command name), with
 * those of its exited and reaped children (fields 16 and 17) when `reaped` is set.
 */
function processCpuSeconds(pid: number | string, reaped = false): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const own = Number(fields[11]) + Number(fields[12]);
  return (reaped ? own + Number(fields[13]) + Number(fields[14]) : own) / 100;
}

const childrenOf = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

/** `pid` and its live descendants (the service's HTTP workers). */
export function processTree(pid: number): number[] {
  const tree: number[] = [];
  for (const stack = [pid]; stack.length > 0;) {
    const next = stack.pop()!;
    tree.push(next);
    stack.push(...childrenOf(next));
  }
  return tree;
}

/** CPU seconds of a process and its live descendants (the service's HTTP workers). */
export function treeCpuSeconds(pid: number): number {
  let total = 0;
  for (const next of processTree(pid)) {
    try {
      total += processCpuSeconds(next);
    } catch {
      // it exited meanwhile
    }
  }
  return total;
}

/**
 * CPU seconds of every PostgreSQL process visible on this machine (backends, WAL writer, checkpointer...), or
 * undefined when none is: the server runs elsewhere, and its cost cannot be read from here. A backend that exits
 * (a pool closing) moves its CPU into the postmaster's reaped children's, so the sum never goes back.
 */
export function postgresCpuSeconds(): number | undefined {
  let total: number | undefined;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      total = (total ?? 0) + processCpuSeconds(pid, true);
    } catch {
      // exited meanwhile
    }
  }
  return total;
}

const parentOf = (pid: number): number => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);

/**
 * CPU seconds of the one PostgreSQL server at `url`, when it runs on this machine: its postmaster (the parent of
 * this connection's backend) with its reaped children and its live ones, so backends that exited are kept and
 * other servers on the machine are left out; undefined when it runs elsewhere (no such process here).
 */
export async function serverCpuReader(url: string): Promise<() => number | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let postmaster: number;
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    postmaster = parentOf(rows[0].pid);
  } catch {
    return () => undefined;
  } finally {
    await client.end();
  }
  return () => {
    try {
      return processCpuSeconds(postmaster, true) + childrenOf(postmaster).reduce((sum, pid) => sum + treeCpuSeconds(pid), 0);
    } catch {
      return undefined;
    }
  };
}

/** Starts counting PostgreSQL's CPU on this machine: the returned call says how many seconds it has spent since (undefined if it runs elsewhere). */
export function postgresCpuMeter(): () => number | undefined {
  const start = postgresCpuSeconds();
  return () => {
    const end = postgresCpuSeconds();
    return start === undefined || end === undefined ? undefined : end - start;
  };
}

/**
 * Starts counting the CPU of the PostgreSQL backends connected to `database` only: other work on a shared server
 * (other databases' tests) is not counted, nor are the server's own processes (WAL writer, checkpointer). The
 * returned call says how many seconds they have spent since; a backend that connected meanwhile counts from its start.
 */
export async function databaseCpuMeter(admin: pg.Client, database: string): Promise<() => Promise<number>> {
  const backends = async () => {
    const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
    const cpu = (pid: number) => {
      try {
        return processCpuSeconds(pid);
      } catch {
        return 0; // exited meanwhile
      }
    };
    return new Map(rows.map(({ pid }) => [pid, cpu(pid)]));
  };
  const before = await backends();
  return async () => {
    let seconds = 0;
    for (const [pid, after] of await backends()) seconds += after - (before.get(pid) ?? 0);
    return seconds;
  };
}

/** This process's own CPU seconds (a baseline that runs in the bench process). */
export const ownCpuSeconds = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** Whose CPU is PostgreSQL's: every PostgreSQL process on this machine (true), none (false), or one server's (serverCpuReader). */
export type DatabaseCpu = boolean | (() => number | undefined);

/**
 * A measurement with the CPU time it cost per answered request: `cpuSeconds` reads the measured program's, and
 * PostgreSQL's is read too when it runs on this machine. On a shared machine, where the same code runs at
 * different speeds from one hour to the next, this is the figure that explains a throughput.
 */
export async function withCpuCost(
  cpuSeconds: () => number,
  measure: () => Promise<Measurement>,
  options: { database: DatabaseCpu } = { database: true },
): Promise<Measurement> {
  const { database } = options;
  const databaseSeconds = typeof database === 'function' ? database : () => (database ? postgresCpuSeconds() : undefined);
  const [program0, database0] = [cpuSeconds(), databaseSeconds()];
  const result = await measure();
  const [program1, database1] = [cpuSeconds(), databaseSeconds()];
  const perRequest = (seconds: number) => (seconds * 1e6) / Math.max(1, result.count + result.errors);
  return {
    ...result,
    cpuPerRequestUs: {
      service: perRequest(program1 - program0),
      ...(database0 !== undefined && database1 !== undefined ? { database: perRequest(database1 - database0) } : {}),
    },
  };
}
