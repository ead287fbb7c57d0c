import type { ServiceProcess } from './service-process';
import { runningProgress } from './stats';

/**
 * POSTs a sandbox run to the service and times it, with the service's CPU over it; every second while it runs,
 * `status` says how far it is (a count the run's committed chunks show).
 */
export async function timedRun(service: ServiceProcess, path: string, token: string, status: () => Promise<string>) {
  const started = performance.now();
  const cpuBefore = service.cpuSeconds();
  const running = runningProgress();
  const poll = setInterval(() => {
    const elapsed = (performance.now() - started) / 1000;
    void status().then(
      (message) => running.update(elapsed, `${Math.round(elapsed)} s: ${message}`),
      () => undefined,
    );
  }, 1000);
  const run = await service.call('POST', path, token).finally(() => clearInterval(poll));
  const seconds = (performance.now() - started) / 1000;
  running.done();
  if (run.status !== 201) throw new Error(`${path} answered ${run.status}: ${JSON.stringify(run.body)}`);
  return { body: run.body, seconds, serviceCpuSeconds: service.cpuSeconds() - cpuBefore };
}
