import type { Knex } from 'knex';
import pg from 'pg';

/*
 * Knex's own PostgreSQL dialect class: not in its typings, stable within the pinned version. What this file relies
 * on in it and in node-pg is checked by test/pipelined-postgres-client.test.ts, an upgrade canary.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- untyped: an import would have no type to name
const PostgresClient = require('knex/lib/dialects/postgres') as new (config: Knex.Config) => PostgresClientInternals;

interface PostgresClientInternals {
  _driver(): unknown;
}

type PipelinedConnection = pg.Client & { pipeline?: boolean; connection: { stream: NodeJS.WritableStream } };

/**
 * A node-pg client that, when it pipelines, sends every statement submitted in one turn of the event loop in one
 * socket write: node-pg writes each statement on its own, and a write costs this service more CPU than building
 * the statement. Holding the bytes until the turn ends delays nothing that was not going to wait anyway. The turn
 * ends with its promise continuations (setImmediate, not nextTick, which runs before them): a transaction's last
 * writes, each sent after awaiting the one before without waiting for the server (an insert, its event, the
 * stored answer, the COMMIT), leave in one write.
 */
class CoalescingClient extends pg.Client {}

const corked = new WeakSet<pg.Client>();
// eslint-disable-next-line @typescript-eslint/unbound-method -- node-pg's own query, applied to each connection below
const submit = pg.Client.prototype.query as (...args: unknown[]) => unknown;
CoalescingClient.prototype.query = function query(this: PipelinedConnection, ...args: unknown[]) {
  if (this.pipeline && !corked.has(this)) {
    corked.add(this);
    const { stream } = this.connection;
    stream.cork();
    setImmediate(() => {
      corked.delete(this);
      stream.uncork();
    });
  }
  return submit.apply(this, args);
} as pg.Client['query'];

/** node-pg as Knex sees it, with CoalescingClient for its connections. */
const coalescingDriver = Object.assign(Object.create(pg) as typeof pg, { Client: CoalescingClient });

/** Knex's PostgreSQL client, with coalesced writes (above) on its connections. */
export class PipelinedPostgresClient extends PostgresClient {
  override _driver(): unknown {
    return coalescingDriver;
  }
}
