import { fork } from 'node:child_process';
import path from 'node:path';
import { tracked } from './children';
import { treeCpuSeconds, withCpuCost } from './cpu';
import { createReceivables, listReceivables, type ScenarioRun } from './scenarios';
import { progress, type Measurement } from './stats';

/**
 * The creation and list scenarios against floor-server (the same statements, through Express and node-pg with
 * nothing else), in its own process with `poolSize` connections, on the service's seeded database.
 */
export async function floorScenarios(url: string, poolSize: number, run: ScenarioRun): Promise<{ create: Measurement; list: Measurement }> {
  const child = tracked(
    fork(path.join(__dirname, 'floor-server.js'), [], {
      env: { ...process.env, DATABASE_URL: url, POOL_SIZE: String(poolSize) },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    }),
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the floor server exited (${code}) before it listened`)));
  });
  const floor = { url: `http://127.0.0.1:${port}` };
  const measure = (scenario: typeof createReceivables) => withCpuCost(() => treeCpuSeconds(child.pid!), () => scenario(floor, run));
  try {
    progress(`floor: create, ${run.connections} connections for ${run.seconds} s`);
    const create = await measure(createReceivables);
    progress(`floor: list, ${run.connections} connections for ${run.seconds} s`);
    return { create, list: await measure(listReceivables) };
  } finally {
    child.kill();
  }
}
