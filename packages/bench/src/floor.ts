import path from 'node:path';
import { forkServer } from './children';
import { treeCpuSeconds, withCpuCost } from './cpu';
import { createReceivables, listReceivables, type ScenarioRun } from './scenarios';
import { progress, type Measurement } from './stats';

/**
 * The creation and list scenarios against floor-server (the same statements, through Express and node-pg with
 * nothing else), in its own process with `poolSize` connections, on the service's seeded database.
 */
export async function floorScenarios(url: string, poolSize: number, run: ScenarioRun): Promise<{ create: Measurement; list: Measurement }> {
  const floor = await forkServer(path.join(__dirname, 'floor-server.js'), { DATABASE_URL: url, POOL_SIZE: String(poolSize) });
  const measure = (scenario: typeof createReceivables) =>
    withCpuCost(
      () => treeCpuSeconds(floor.child.pid!),
      () => scenario(floor, run),
    );
  try {
    progress(`floor: create, ${run.connections} connections for ${run.seconds} s`);
    const create = await measure(createReceivables);
    progress(`floor: list, ${run.connections} connections for ${run.seconds} s`);
    return { create, list: await measure(listReceivables) };
  } finally {
    floor.child.kill();
  }
}
