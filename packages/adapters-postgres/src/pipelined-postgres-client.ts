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
  _completed: boolean;
  _resolver(value: unknown): void;
  _rejecter(error: unknown): void;
  begin(connection: pg.Client): Promise<unknown>;
  commit(connection: pg.Client, value: unknown): Promise<unknown>;
  /** Settles the transaction as `status` says (1 committed, 2 rolled back; none: neither) once `sql` answers. */
  query(connection: pg.Client, sql: string, status?: 1 | 2, value?: unknown): Promise<unknown>;
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
 * BEGIN sent without waiting for its answer when the connection pipelines (node-pg's `pipeline` option): the
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

  /**
   * PostgreSQL answers the COMMIT of a transaction that a failed statement aborted with ROLLBACK, not an error:
   * Knex would report it committed. A failure that work caught and went on from must not pass as a commit.
   */
  override commit(connection: pg.Client, value: unknown): Promise<unknown> {
    const answered = this.query(connection, 'COMMIT;');
    // As Knex marks it for COMMIT, once sent: nothing else goes out on this transaction.
    this._completed = true;
    return answered.then((answer) => {
      // No answer: the COMMIT failed, and query() has rejected the transaction with its error.
      if (answer === undefined) return answer;
      if ((answer as { response?: { command?: string } }).response?.command === 'ROLLBACK') {
        this._rejecter(new TransactionRolledBackError());
      } else {
        this._resolver(value);
      }
      return answer;
    });
  }
}

/** A COMMIT the server carried out as a ROLLBACK: nothing of the transaction was kept. */
export class TransactionRolledBackError extends Error {
  constructor() {
    super('the transaction was rolled back at COMMIT: a statement of it had failed, and nothing of it was kept');
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
