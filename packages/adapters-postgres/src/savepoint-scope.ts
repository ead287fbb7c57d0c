import type { Knex } from 'knex';
import { TransactionEndedError } from '@rcs/domain';

/** The two ways Knex's client sends a statement on a connection (not in its typings). */
interface Sending {
  query(connection: unknown, query: unknown): Promise<unknown>;
  stream(connection: unknown, query: unknown, stream: unknown, options: unknown): Promise<unknown>;
}

/** Isolated work's view of its transaction, and the switch that ends it. */
export interface SavepointScope {
  readonly trx: Knex.Transaction;
  readonly end: () => void;
}

/**
 * What isolated work runs its statements on: the transaction's own Knex object, connection and client, behind a
 * client that refuses every statement once the savepoint has ended (as Knex refuses those of an ended
 * transaction), so that work outliving its isolated call fails instead of running in the transaction around it.
 * Not a Knex savepoint: Knex builds a whole client, a hundred closures, for each of those, and every keyed request
 * opens one; that was most of what a creation's garbage collections found alive.
 */
export function savepointScope(trx: Knex.Transaction): SavepointScope {
  let ended = false;
  const outer = trx.client as unknown as Sending;
  const refused = () => Promise.reject(new TransactionEndedError());
  const sending: Sending = {
    query: (connection, query) => (ended ? refused() : outer.query(connection, query)),
    stream: (connection, query, stream, options) => (ended ? refused() : outer.stream(connection, query, stream, options)),
  };
  // Everything else (the connection, settings, events, builders) is the transaction's client's, inherited.
  const client = Object.assign(Object.create(outer) as object, sending);
  // Knex's object reaches its client through its context: builders, raw statements and `client` all see this one.
  const context: { queryBuilder(): Knex.QueryBuilder } = Object.assign(Object.create((trx as unknown as { context: object }).context) as object, {
    client,
  }) as never;
  const isCompleted = () => ended || trx.isCompleted();
  const handle = new Proxy(trx, {
    apply: (_target, _this, [table, options]: unknown[]) => {
      const builder = context.queryBuilder();
      return table === undefined ? builder : builder.table(table as string, options as Parameters<Knex.QueryBuilder['table']>[1]);
    },
    get: (target, property, receiver) => {
      if (property === 'context') return context;
      if (property === 'isCompleted') return isCompleted;
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  return {
    trx: handle,
    end: () => {
      ended = true;
    },
  };
}
