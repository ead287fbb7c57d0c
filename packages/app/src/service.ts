import type { Server } from 'node:http';
import path from 'node:path';
import type { Express } from 'express';
import type { Container } from 'inversify';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Application, Clock } from '@rcs/domain';
import { credentialOfToken, databaseReady, foldListCounts } from '@rcs/adapters-postgres';
import { answerMalformedRequests, createHttpApp, type HttpsWebhookSender, type JwtTokenService } from '@rcs/adapters-http';
import type { Config } from './config';
import { buildContainer, resolveBankNotificationSecret, resolveJwtSecret, resolveWebhookSecretKey, TYPES } from './container';
import { checkDatabaseMode } from './database-mode';
import type { ServiceMetrics } from './metrics';
import { openStorage } from './storage';
import { PollingWorker } from './workers/polling-worker';
import { scheduleJobs } from './workers/cron-jobs';
import { webhookWorkers } from './workers/webhook-workers';
import { SignedIncomingTransferNotifications, startBankSimulator } from '@rcs/adapters-bank';

export interface RunningService {
  readonly server: Server;
  readonly port: number;
  stop(): Promise<void>;
}

/** Sandbox bootstrap: the two sandbox customers, their current accounts and credentials (idempotent). */
export async function bootstrapSandbox(app: Application, config: Config, logger: Logger): Promise<void> {
  for (const sandbox of config.sandboxCredentials) {
    const customer = await app.customers.ensureSandbox.execute({ name: sandbox.customerName, clientId: sandbox.clientId, clientSecret: sandbox.clientSecret });
    logger.info({ customerId: customer.id, clientId: sandbox.clientId }, 'sandbox customer ready');
  }
}

/** Asks the provider for due PROVISIONING accounts' CVUs; a full batch means more may be waiting. */
export function provisioningWorker(app: Application, config: Config, logger: Logger): PollingWorker {
  const { batchSize, pollMs } = config.provisioning;
  return new PollingWorker(
    'provisioning',
    pollMs,
    async () => {
      const { outcomes, failures } = await app.receivableAccounts.provision.execute({ limit: batchSize });
      for (const { accountId, error } of failures) logger.error({ err: error, worker: 'provisioning', accountId }, 'provisioning an account failed');
      const handled = Object.values(outcomes).reduce((sum, n) => sum + n, 0) + failures.length;
      if (handled > 0) logger.info({ worker: 'provisioning', ...outcomes, failed: failures.length }, 'provisioning pass');
      return handled >= batchSize;
    },
    logger,
  );
}

/** The Express app over the container's application and adapters; `draining` tells it the service is shutting down. */
export function httpAppOf(container: Container, ready: () => Promise<boolean>, draining: () => boolean = () => false): Express {
  const knex = container.get<Knex>(TYPES.Knex);
  const notificationSecret = container.get<Config>(TYPES.Config).bankNotificationSecret;
  return createHttpApp({
    app: container.get<Application>(TYPES.Application),
    clock: container.get<Clock>(TYPES.Clock),
    tokens: container.get<JwtTokenService>(TYPES.Tokens),
    logger: container.get<Logger>(TYPES.Logger),
    rateLimits: container.get<Config>(TYPES.Config).rateLimits,
    trustProxy: container.get<Config>(TYPES.Config).trustProxy,
    sandbox: container.get<Config>(TYPES.Config).mode === 'sandbox',
    bankNotifications: notificationSecret ? new SignedIncomingTransferNotifications(notificationSecret) : undefined,
    credentialOfToken: (credentialId) => credentialOfToken(knex, credentialId),
    ready,
    draining,
    metrics: container.get<ServiceMetrics>(TYPES.Metrics),
  });
}

/**
 * The provider to talk to: BANK_PROVIDER_URL, or in sandbox without it a simulator started in this process. The
 * simulator's notifications go back to this service, whose address is known only once it listens: `notify.url`
 * is filled in then.
 */
async function bankProvider(config: Config, logger: Logger, notify: { url: string; secret: string }): Promise<{ url: string; stop(): Promise<void> }> {
  if (config.bankProviderUrl) return { url: config.bankProviderUrl, stop: () => Promise.resolve() };
  const simulator = await startBankSimulator(0, { provisioningDelayMs: config.sandboxProvisioningDelayMs, notify });
  logger.info({ url: simulator.url }, 'banking provider simulator running in-process');
  return simulator;
}

/** Opens storage, migrates, bootstraps and serves; `stop` drains in-flight requests, stops workers, closes the database. */
export async function startService(configured: Config, logger: Logger): Promise<RunningService> {
  const storage = await openStorage(configured);
  await checkDatabaseMode(storage.knex, configured.mode).catch(async (error: unknown) => {
    await storage.close();
    throw error;
  });
  const config: Config = { ...configured, bankNotificationSecret: await resolveBankNotificationSecret(configured, storage.knex) };
  const notify = { url: '', secret: config.bankNotificationSecret ?? '' };
  const bank = await bankProvider(config, logger, notify);
  const jwtSecret = await resolveJwtSecret(config, storage.knex);
  // The worker needs the application, and the application's trigger reads the worker: a const here would be read
  // before its initialisation by a trigger fired that early, which must find no worker instead of throwing.
  // eslint-disable-next-line prefer-const
  let provisioning: PollingWorker | undefined;
  const container = buildContainer(config, logger, storage.knex, {
    jwtSecret,
    webhookSecretKey: await resolveWebhookSecretKey(config, storage.knex),
    bankProviderUrl: bank.url,
    provisioningTrigger: { accountOpened: () => provisioning?.wake() },
  });
  const app = container.get<Application>(TYPES.Application);
  if (config.mode === 'sandbox') await bootstrapSandbox(app, config, logger);
  provisioning = provisioningWorker(app, config, logger);
  const upkeep = { foldCounts: () => foldListCounts(storage.knex) };
  const jobs = config.workersEnabled ? scheduleJobs(app, upkeep, config, logger, container.get<ServiceMetrics>(TYPES.Metrics)) : undefined;
  const webhooks = webhookWorkers(app, config.webhooks, logger);
  if (config.workersEnabled) {
    provisioning.start();
    webhooks.start();
  }

  let draining = false;
  const http = httpAppOf(
    container,
    () => databaseReady(storage.knex),
    () => draining,
  );
  const server = http.listen(config.port);
  answerMalformedRequests(server);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  notify.url = `http://127.0.0.1:${port}/bank/notifications/incoming-transfers`;
  const stored = storage.embedded ? { storage: 'embedded PGlite', dataDir: path.resolve(config.dataDir) } : { storage: 'PostgreSQL' };
  logger.info({ port, mode: config.mode, ...stored }, 'listening');

  return {
    server,
    port,
    async stop() {
      draining = true;
      // Background work stops at once (other instances take it over) and is waited for, as requests are, before the
      // database closes: a run under way is not cut off half-way.
      const background = Promise.all([provisioning?.stop(), webhooks.stop(), jobs?.stop()]);
      if (config.shutdownDrainMs > 0) {
        logger.info({ drainMs: config.shutdownDrainMs }, 'draining: /health answers 503 while requests are still served');
        await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
      }
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const forced = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
      await closed;
      clearTimeout(forced);
      await background;
      container.get<HttpsWebhookSender>(TYPES.WebhookSender).close();
      await bank.stop();
      await storage.close();
      logger.info('stopped');
    },
  };
}
