import { withCpuCost } from './cpu';
import { fixedRateLoad } from './fixed-rate-load';
import type { Row } from './report';
import { newCreation, type ScenarioRun } from './scenarios';
import type { ServiceProcess } from './service-process';
import { progress, type Measurement } from './stats';

/** Target: p99 of a creation at half the saturating rate. */
const P99_TARGET_MS = 25;

/** The service counts as idle once it uses less than this share of one core over a sample. */
const IDLE_SHARE = 0.05;
const IDLE_SAMPLE_MS = 500;
const IDLE_WAIT_MS = 60_000;

/**
 * Waits until the service has finished what the runs before left it: a load generator stops sending at the end
 * of its time, but the requests still queued (64 logins of 35 ms of scrypt each) keep the service busy after it.
 */
async function untilIdle(service: ServiceProcess): Promise<void> {
  for (const until = Date.now() + IDLE_WAIT_MS; Date.now() < until;) {
    const before = service.cpuSeconds();
    await new Promise((resolve) => setTimeout(resolve, IDLE_SAMPLE_MS));
    if (service.cpuSeconds() - before < (IDLE_SHARE * IDLE_SAMPLE_MS) / 1000) return;
  }
  progress(`the service is still busy after ${IDLE_WAIT_MS / 1000} s: measuring anyway`);
}

export interface HalfLoad {
  /** Creations per second offered: half of what the service answered at saturation in the same run. */
  readonly offered: number;
  readonly saturating: number;
  readonly result: Measurement;
}

/**
 * Creations at a fixed rate of half the saturating one just measured on the same service, open loop: the latency a
 * user sees when the service is busy but not overloaded. At saturation every request waits behind the others, so
 * the saturating run's p99 is queueing, not service time.
 */
export async function halfLoadCreations(service: ServiceProcess, run: ScenarioRun, saturating: Measurement): Promise<HalfLoad> {
  const offered = saturating.throughput / 2;
  await untilIdle(service);
  progress(`creations at half the saturating rate: ${offered.toFixed(0)} / s, open loop, for ${run.seconds} s`);
  const result = await withCpuCost(
    () => service.cpuSeconds(),
    () =>
      fixedRateLoad({
        url: `${service.url}/v1/receivables`,
        method: 'POST',
        headers: { authorization: `Bearer ${run.token}` },
        perRequest: () => newCreation(run),
        rate: offered,
        seconds: run.seconds,
        connections: run.connections,
        expectStatus: 201,
      }),
  );
  return { offered, saturating: saturating.throughput, result };
}

export function halfLoadRow(storage: string, { offered, saturating, result }: HalfLoad): Row {
  return {
    storage,
    scenario: 'create receivable, half load',
    result,
    target: `p99 <= ${P99_TARGET_MS} ms`,
    // A request refused or timed out at half load is a miss, whatever the others' latency.
    met: result.p99 <= P99_TARGET_MS && result.errors === 0,
    note: `open loop at ${offered.toFixed(0)} creations/s, half the ${saturating.toFixed(0)} /s answered at saturation just before; latency counted from when each request was due`,
  };
}
