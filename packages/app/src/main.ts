import cluster from 'node:cluster';
import { runPrimary, workerConfig } from './cluster';
import { ConfigError, loadConfig, type Config } from './config';
import { createLogger } from './logger';
import { servePrimaryMetrics } from './metrics';
import { startService } from './service';
import { openStorage } from './storage';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`cannot start: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  if (config.httpWorkers > 1 && cluster.isPrimary) {
    // Migrated once before the workers start: they find nothing left to do, and none is stopped half-way through a
    // migration because a sibling failed (a worker that fails stops the others).
    await (await openStorage(config)).close();
    servePrimaryMetrics();
    return runPrimary(config, logger);
  }
  if (cluster.worker) config = workerConfig(config, cluster.worker.id);
  const service = await startService(config, logger);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    service.stop().then(
      () => process.exit(0),
      (error) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error) => {
  process.stderr.write(`cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
