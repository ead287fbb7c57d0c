import type { Knex } from 'knex';
import { TransactionEndedError } from '@rcs/domain';
import { pgCode, PG_IN_FAILED_TRANSACTION } from './repositories/pg-errors';

/** The two ways Knex's client sends a statement on a connection (not in its typings). */
interface Sending {
  query(connection: unknown, query: unknown): Promise<unknown>;
  stream(connection: unknown, query: unknown, stream: unknown, options: unknown): Promise<unknown>;
}

/** A transaction's or savepoint's view of the database, the switch that ends it, and what went through it. */
export interface StatementScope {
  readonly trx: Knex.Transaction;
  readonly end: () => void;
  /** How many statements were sent through this scope, those of scopes made from it included. */
  readonly sent: () => number;
  /**
   * A transaction's scope: the last of its statements (its savepoints' included) that failed, other than those
   * refused because an earlier one had aborted the transaction, which is what the transaction failed of.
   */
  readonly lastFailure: () => unknown;
}

/**
 * What opens or ends a transaction or savepoint through Knex, or the pool: on a scope, it would commit, roll back
 * or nest behind the unit of work's back (a Knex savepoint's client refuses nothing once this scope ends), or
 * close the pool under the transaction that holds one of its connections.
 */
const OWNED_BY_THE_UNIT_OF_WORK = [
  'transaction',
  '_transaction',
  'transactionProvider',
  'savepoint',
  'batchInsert',
  'commit',
  'rollback',
  'destroy',
  'initialize',
  'initializePool',
];
const ownedByTheUnitOfWork = (): never => {
  throw new Error('transactions, savepoints and the pool belong to the unit of work: use its run, begin or isolated');
};
const refusals = Object.fromEntries(OWNED_BY_THE_UNIT_OF_WORK.map((name) => [name, ownedByTheUnitOfWork]));
const refused = new Set(OWNED_BY_THE_UNIT_OF_WORK);

/** What a scope is made of, kept for the scopes made from it. */
interface Layers {
  /** The Knex object at the root, the target of every scope's proxy. */
  readonly knex: Knex;
  /** Its client and its context, each behind the refusals above: made once per root, the prototype of every scope's. */
  readonly client: object;
  readonly context: object;
  /** What pins a transaction's statements to its connection. */
  readonly onConnection: object;
}
/** The property under which a scope's proxy answers its layers. */
const LAYERS = Symbol('statement scope layers');
const layersOfRoot = new WeakMap<object, Omit<Layers, 'onConnection'>>();

function rootLayers(root: Knex): Omit<Layers, 'onConnection'> {
  let layers = layersOfRoot.get(root);
  if (layers === undefined) {
    const context = (root as unknown as { context: object }).context;
    layers = {
      knex: root,
      client: Object.assign(Object.create(root.client as object) as object, refusals),
      context: Object.assign(Object.create(context) as object, refusals),
    };
    layersOfRoot.set(root, layers);
  }
  return layers;
}

/**
 * What a transaction (given its `connection`) or a savepoint in one (given the transaction's scope as `base`) runs
 * its statements on: `base`'s Knex object, behind a client that sends every statement on the connection and
 * refuses it once the scope has ended, as Knex refuses those of an ended transaction, so that work outliving its
 * transaction or savepoint fails instead of running in whatever the connection does next.
 *
 * Not a Knex transaction or savepoint: Knex builds a whole client, a hundred closures and their listeners, for
 * each of those, and every keyed request opens one of each; that was most of what a creation's garbage
 * collections found alive. Nor does a scope inherit from the one it was made from: an object V8 has to turn into
 * a prototype costs more than the rest of the scope (a transaction and a savepoint in it took 33 us here, 2.4 without).
 * So what is set on a scope's Knex object or client at run time (Knex's `userParams`, say) is not seen through the
 * scopes made from it: the unit of work sets nothing there.
 */
export function statementScope(base: Knex, connection?: unknown): StatementScope {
  let ended = false;
  let sent = 0;
  let failure: unknown;
  const noting = (error: unknown): never => {
    if (pgCode(error) !== PG_IN_FAILED_TRANSACTION) failure = error;
    throw error;
  };
  // A savepoint's statements reach its transaction's scope too, which notes their failures alone.
  const noted = (answer: Promise<unknown>) => (connection === undefined ? answer : answer.catch(noting));
  const enclosing = (base as { [LAYERS]?: Layers })[LAYERS];
  const onConnection =
    connection === undefined
      ? (enclosing?.onConnection ?? {})
      : { transacting: true, acquireConnection: () => Promise.resolve(connection), releaseConnection: () => Promise.resolve() };
  const layers: Layers = { ...(enclosing ?? rootLayers(base)), onConnection };
  // The enclosing scope's client (through the proxy's context), or the root's.
  const parent = base.client as unknown as Sending;
  const ending = () => Promise.reject(new TransactionEndedError());
  const sending: Sending = {
    query: (on, query) => {
      if (ended) return ending();
      sent++;
      return noted(parent.query(on, query));
    },
    stream: (on, query, stream, options) => {
      if (!ended) {
        sent++;
        return noted(parent.stream(on, query, stream, options));
      }
      // Knex's runner tells a stream nothing of a refusal once it has a connection: it would wait forever.
      (stream as NodeJS.EventEmitter).emit('error', new TransactionEndedError());
      return ending();
    },
  };
  // Everything else (settings, events, builders) is the root client's, inherited.
  const client = Object.assign(Object.create(layers.client) as object, sending, onConnection);
  // Knex's object reaches its client through its context: builders, raw statements and `client` all see this one.
  const context: { queryBuilder(): Knex.QueryBuilder } = Object.assign(Object.create(layers.context) as object, { client }) as never;
  const isCompleted = () => ended || (base as { isCompleted?: () => boolean }).isCompleted?.() === true;
  const trx = new Proxy(layers.knex as Knex.Transaction, {
    apply: (_target, _this, [table, options]: unknown[]) => {
      const builder = context.queryBuilder();
      return table === undefined ? builder : builder.table(table as string, options as Parameters<Knex.QueryBuilder['table']>[1]);
    },
    get: (target, property, receiver) => {
      if (property === 'context') return context;
      if (property === 'isCompleted') return isCompleted;
      if (property === LAYERS) return layers;
      if (typeof property === 'string' && refused.has(property)) return ownedByTheUnitOfWork;
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
  return {
    trx,
    end: () => {
      ended = true;
    },
    sent: () => sent,
    lastFailure: () => failure,
  };
}
