import net from 'node:net';
import type { Knex } from 'knex';
import pino from 'pino';
import type { Application } from '@rcs/domain';
import { databaseReady } from '@rcs/adapters-postgres';
import { loadConfig } from '../../src/config';
import { buildContainer, TYPES } from '../../src/container';
import { httpAppOf } from '../../src/service';
import { TEST_JWT_SECRET } from './test-api';

/**
 * A service instance on the given pool, as another process would run it: its own application and Express app,
 * whose /health asks the database (the test API's always says ready). Tokens of the test API work here.
 */
export function serviceOn(knex: Knex, bankProviderUrl = 'http://127.0.0.1:9') {
  const config = loadConfig({ APP_MODE: 'sandbox', JWT_SECRET: TEST_JWT_SECRET, RATE_LIMIT_PER_MINUTE: '1000000', WORKERS_ENABLED: 'false' });
  const logger = pino({ level: 'silent' });
  const container = buildContainer(config, logger, knex, { jwtSecret: TEST_JWT_SECRET, bankProviderUrl, webhookSecretKey: 'w'.repeat(40) });
  return { app: container.get<Application>(TYPES.Application), config, logger, http: httpAppOf(container, () => databaseReady(knex)) };
}

/** A TCP relay to `target` on a loopback port; `cut` closes it and every connection through it: the database goes away. */
export async function startTcpRelay(target: { host: string; port: number }): Promise<{ port: number; cut(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((inbound) => {
    const outbound = net.connect(target.port, target.host);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
