import type { Knex } from 'knex';
import pg from 'pg';

/*
 * Knex's own PostgreSQL dialect and transaction classes: not in its typings, stable within the pinned version. What
 * this file relies on in them and in node-pg is checked by test/pipelined-postgres-client.test.ts, an upgrade canary.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- untyped: an import would have no type to name
const PostgresClient = require('knex/lib/dialects/postgres') as new (config: Knex.Config) => PostgresClientInternals;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
const PostgresTransaction = require('knex/lib/dialects/postgres/execution/pg-transaction') as new (...args: unknown[]) => KnexTransaction;

interface PostgresClientInternals {
  transaction(...args: unknown[]): unknown;
  _driver(): unknown;
}

interface KnexTransaction {
  isolationLevel?: string;
  readOnly?: boolean;
  txid: string;
  begin(connection: pg.Client): Promise<unknown>;
  savepoint(connection: pg.Client): Promise<unknown>;
  query(connection: pg.Client, sql: string): Promise<unknown>;
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

/**
 * BEGIN (and SAVEPOINT) sent without waiting for its answer when the connection pipelines (node-pg's `pipeline` option): the
 * transaction's first statement goes out right behind it, in the same write, saving a round trip per
 * transaction. Should BEGIN fail, Knex's own handling rejects the transaction, and the statement behind it fails
 * in order on the server.
 */
class PipelinedTransaction extends PostgresTransaction {
  override begin(connection: pg.Client): Promise<unknown> {
    if (!(connection as PipelinedConnection).pipeline || this.isolationLevel || this.readOnly) return super.begin(connection);
    void this.query(connection, 'BEGIN;');
    return Promise.resolve();
  }

  /** A savepoint (isolated work) is sent the same way: its first statement goes out right behind it. */
  override savepoint(connection: pg.Client): Promise<unknown> {
    if (!(connection as PipelinedConnection).pipeline) return super.savepoint(connection);
    void this.query(connection, `SAVEPOINT ${this.txid};`);
    return Promise.resolve();
  }
}

/** Knex's PostgreSQL client, with pipelined transactions and coalesced writes (above). */
export class PipelinedPostgresClient extends PostgresClient {
  override _driver(): unknown {
    return coalescingDriver;
  }

  override transaction(...args: unknown[]): unknown {
    return new PipelinedTransaction(this, ...args);
  }
}
