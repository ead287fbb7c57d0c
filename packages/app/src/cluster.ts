import cluster from 'node:cluster';
import type { Logger } from 'pino';
import type { Config } from './config';

/**
 * The primary of HTTP_WORKERS processes sharing one port. It serves nothing itself: it forks the workers, passes
 * SIGTERM/SIGINT on to them and exits when they have finished. A worker that dies on its own takes the others
 * down with it (exit 1), so a supervisor restarts one whole service instead of running a silently smaller one.
 */
export function runPrimary(config: Config, logger: Logger): void {
  let stopping = false;
  for (let i = 0; i < config.httpWorkers; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (!stopping) {
      logger.error({ worker: worker.id, code, signal }, 'an HTTP worker died; stopping the others');
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
      process.exitCode = 1;
    }
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit();
  });
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: config.httpWorkers }, 'shutting down the HTTP workers');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/**
 * What one of several workers runs with: connections arrive round-robin, so each enforces its share of a
 * key's rate limit; background jobs run in the first worker only (they are safe in several, but would
 * only compete for the same rows).
 */
export function workerConfig(config: Config, workerId: number): Config {
  const share = (perMinute: number) => Math.ceil(perMinute / config.httpWorkers);
  return {
    ...config,
    rateLimits: {
      perCredential: share(config.rateLimits.perCredential),
      perSource: share(config.rateLimits.perSource),
      loginPerSource: share(config.rateLimits.loginPerSource),
    },
    workersEnabled: config.workersEnabled && workerId === 1,
  };
}
