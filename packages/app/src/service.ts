import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Container } from 'inversify';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Application, Clock, UnitOfWork } from '@rcs/domain';
import { credentialActive, databaseReady } from '@rcs/adapters-postgres';
import { createHttpApp, type JwtTokenService } from '@rcs/adapters-http';
import type { Config } from './config';
import { buildContainer, resolveJwtSecret, TYPES } from './container';
import { openStorage } from './storage';

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

/** The Express app over the container's application and adapters. */
export function httpAppOf(container: Container, ready: () => Promise<boolean>): Express {
  const knex = container.get<Knex>(TYPES.Knex);
  return createHttpApp({
    app: container.get<Application>(TYPES.Application),
    uow: container.get<UnitOfWork>(TYPES.UnitOfWork),
    clock: container.get<Clock>(TYPES.Clock),
    tokens: container.get<JwtTokenService>(TYPES.Tokens),
    logger: container.get<Logger>(TYPES.Logger),
    rateLimitPerMinute: container.get<Config>(TYPES.Config).rateLimitPerMinute,
    credentialActive: (credentialId) => credentialActive(knex, credentialId),
    ready,
  });
}

/** Opens storage, migrates, bootstraps and serves; `stop` drains in-flight requests, then closes the database. */
export async function startService(config: Config, logger: Logger): Promise<RunningService> {
  const storage = await openStorage(config);
  const jwtSecret = await resolveJwtSecret(config, storage.knex);
  const container = buildContainer(config, logger, storage.knex, jwtSecret);
  const app = container.get<Application>(TYPES.Application);
  if (config.mode === 'sandbox') await bootstrapSandbox(app, config, logger);

  const http = httpAppOf(container, () => databaseReady(storage.knex));
  const server = http.listen(config.port);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ port, mode: config.mode, storage: storage.embedded ? 'embedded PGlite' : 'PostgreSQL' }, 'listening');

  return {
    server,
    port,
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const forced = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
      await closed;
      clearTimeout(forced);
      await storage.close();
      logger.info('stopped');
    },
  };
}
