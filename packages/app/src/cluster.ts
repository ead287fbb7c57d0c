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
  cluster.on('message', (from, message: unknown) => {
    if (message !== ATTEMPTS_DISPATCHED) return;
    for (const other of Object.values(cluster.workers ?? {})) if (other && other !== from && other.isConnected()) other.send(ATTEMPTS_DISPATCHED);
  });
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

/** What the workers tell each other through the primary: the dispatcher made attempts, due now. */
const ATTEMPTS_DISPATCHED = 'webhook-attempts-dispatched';

/**
 * Worker `workerId`'s (1-based) part of `total` split among `workers`: whole, and adding up to `total` exactly, so
 * limits split this way hold for the service as a whole.
 */
export function exactShare(total: number, workerId: number, workers: number): number {
  return Math.floor(total / workers) + (workerId <= total % workers ? 1 : 0);
}

/**
 * What one of several workers runs with: connections arrive round-robin, so each enforces its share of a
 * key's rate limit; background jobs run in the first worker only (they are safe in several, but would only
 * compete for the same rows). Webhook delivery runs in every worker that has a share of the connections per
 * endpoint and in all (the sending is CPU the one core of one process cannot give a burst): the limits an operator
 * sets hold for the service, not for each process.
 */
export function workerConfig(config: Config, workerId: number): Config {
  const share = (perMinute: number) => Math.ceil(perMinute / config.httpWorkers);
  const perEndpoint = exactShare(config.webhooks.maxConnectionsPerEndpoint, workerId, config.httpWorkers);
  const connections = exactShare(config.webhooks.maxConnections, workerId, config.httpWorkers);
  return {
    ...config,
    rateLimits: {
      perCredential: share(config.rateLimits.perCredential),
      perSource: share(config.rateLimits.perSource),
      loginPerSource: share(config.rateLimits.loginPerSource),
    },
    workersEnabled: config.workersEnabled && workerId === 1,
    webhookDeliveryEnabled: config.webhookDeliveryEnabled && perEndpoint > 0 && connections > 0,
    webhooks: { ...config.webhooks, maxConnectionsPerEndpoint: perEndpoint, maxConnections: connections },
  };
}

/**
 * How a worker's dispatcher wakes the delivery workers of its siblings (through the primary, which relays), so a
 * burst's attempts are claimed by every process at once, not by the others only at their next poll.
 */
export const clusterPeers = {
  attemptsDispatched(): void {
    process.send?.(ATTEMPTS_DISPATCHED);
  },
  onAttemptsDispatched(listener: () => void): void {
    process.on('message', (message) => {
      if (message === ATTEMPTS_DISPATCHED) listener();
    });
  },
};
