import type { Knex } from 'knex';
import {
  FreeUnitOfWork,
  lazyScope,
  RollbackOnlyError,
  TransactionConflictError,
  TransactionEndedError,
  type TransactionScope,
  type UnitOfWork,
} from '@rcs/domain';
import { KnexCustomerRepository, KnexCredentialRepository } from './repositories/knex-customer-repositories';
import { KnexCurrentAccountRepository } from './repositories/knex-current-account-repository';
import { KnexClientRepository } from './repositories/knex-client-repository';
import { KnexAssociateRepository } from './repositories/knex-associate-repository';
import { KnexReceivableAccountRepository } from './repositories/knex-receivable-account-repository';
import { KnexReceivableRepository } from './repositories/knex-receivable-repository';
import { KnexRouteSettlementRepository } from './repositories/knex-route-settlement-repository';
import { KnexLedgerRepository } from './repositories/knex-ledger';
import { KnexSettlementRepository } from './repositories/knex-settlements';
import { KnexTransferRepository } from './repositories/knex-transfer-repository';
import { KnexIdempotencyRepository } from './repositories/knex-idempotency-repository';
import { KnexOutbox } from './repositories/knex-outbox';
import { KnexContactRepository } from './repositories/knex-contact-repository';
import { KnexEventFeed } from './repositories/knex-event-feed';
import { KnexWebhookRepository } from './repositories/knex-webhook-repository';
import { KnexWebhookDeliveryRepository } from './repositories/knex-webhook-delivery-repository';
import { TransactionWrites } from './repositories/transaction-writes';
import { isTransactionConflict, pgCode, PG_IN_FAILED_TRANSACTION } from './repositories/pg-errors';
import { statementScope, type StatementScope } from './statement-scope';

/** What a transaction's repositories are made from. */
interface Connection {
  readonly trx: Knex.Transaction;
  readonly writes: TransactionWrites;
}

const knexScope = lazyScope<Connection, TransactionScope>({
  customers: ({ trx }) => new KnexCustomerRepository(trx),
  credentials: ({ trx }) => new KnexCredentialRepository(trx),
  currentAccounts: ({ trx }) => new KnexCurrentAccountRepository(trx),
  clients: ({ trx }) => new KnexClientRepository(trx),
  associates: ({ trx }) => new KnexAssociateRepository(trx),
  receivableAccounts: ({ trx }) => new KnexReceivableAccountRepository(trx),
  receivables: ({ trx, writes }) => new KnexReceivableRepository(trx, writes),
  routeSettlements: ({ trx }) => new KnexRouteSettlementRepository(trx),
  ledger: ({ trx }) => new KnexLedgerRepository(trx),
  settlements: ({ trx }) => new KnexSettlementRepository(trx),
  transfers: ({ trx }) => new KnexTransferRepository(trx),
  contacts: ({ trx }) => new KnexContactRepository(trx),
  webhooks: ({ trx }) => new KnexWebhookRepository(trx),
  webhookDeliveries: ({ trx, writes }) => new KnexWebhookDeliveryRepository(trx, writes),
  idempotency: ({ trx, writes }) => new KnexIdempotencyRepository(trx, writes),
  outbox: ({ writes }) => new KnexOutbox(writes),
  eventFeed: ({ trx }) => new KnexEventFeed(trx),
});

/** A transaction or savepoint open on one connection: its writes sent without waiting, and whether joined work failed in it. */
interface Open extends Connection {
  rollbackOnly?: { cause: unknown };
  readonly scope: StatementScope;
}

/** What the outermost transaction runs once it has committed. */
type Effects = Array<() => void>;

/**
 * A deadlock victim is the caller's to retry (409), not a fault of the service (500), whether the work let the
 * failure through or caught it, and the transaction then failed of a statement refused after it or was rolled back
 * at COMMIT: such errors carry the conflict as their cause.
 */
function conflictsAsDomain<T>(pending: Promise<T>): Promise<T> {
  return pending.catch((error: unknown) => {
    const conflict = isTransactionConflict(error) || (error instanceof Error && isTransactionConflict(error.cause));
    throw conflict ? new TransactionConflictError() : error;
  });
}

/** A statement refused because an earlier one had aborted the transaction, given that one's failure as its cause. */
function refusedAfter(error: unknown, failure: unknown): unknown {
  if (failure !== undefined && pgCode(error) === PG_IN_FAILED_TRANSACTION && error instanceof Error && error.cause === undefined) error.cause = failure;
  return error;
}

/**
 * Free: each `run` is a transaction of its own on a pooled connection, and reads go to the pool. `begin` opens a
 * transaction and hands a unit of work bound to it: that is how work joins a transaction, on the same connection
 * instead of asking the pool for a second one (which would deadlock on PGlite and exhaust a real pool).
 */
export class KnexUnitOfWork extends FreeUnitOfWork<TransactionScope> {
  constructor(private readonly knex: Knex) {
    super();
  }

  readonly executor = (): Knex => this.knex;

  begin<T>(work: (bound: BoundKnexUnitOfWork) => Promise<T>): Promise<T> {
    return conflictsAsDomain(this.transaction(work));
  }

  private get client(): ConnectionClient {
    return this.knex.client as ConnectionClient;
  }

  private async transaction<T>(work: (bound: BoundKnexUnitOfWork) => Promise<T>): Promise<T> {
    const connection = await this.client.acquireConnection();
    try {
      return await this.transactionOn(connection, work);
    } finally {
      await this.client.releaseConnection(connection);
    }
  }

  /** BEGIN, the work, then COMMIT, or ROLLBACK should anything fail, on SQL of its own: see statement-scope.ts. */
  private async transactionOn<T>(connection: PooledConnection, work: (bound: BoundKnexUnitOfWork) => Promise<T>): Promise<T> {
    const scope = statementScope(this.knex, connection);
    const writes = new TransactionWrites(scope.trx, connection, connection.pipeline === true);
    const open = { trx: scope.trx, writes, scope };
    const effects: Effects = [];
    let result: T;
    try {
      // Sent without waiting where the connection pipelines: the first statement goes out right behind it. Not a
      // named statement: one the server lost would fail BEGIN, and what follows would commit statement by statement.
      await writes.track(this.client.query(connection, 'BEGIN'));
      result = await committing(open, () => work(new BoundKnexUnitOfWork(open, effects)));
    } catch (error) {
      scope.end();
      await this.ending(connection, 'ROLLBACK').catch((failed: unknown) => {
        // Still in its transaction, the connection must not serve anyone else: the pool drops it.
        connection.__knex__disposed = failed;
      });
      throw refusedAfter((await writes.firstFailure()) ?? error, scope.lastFailure());
    }
    scope.end();
    const committed = await this.ending(connection, 'COMMIT').catch(async (error: unknown) => {
      throw refusedAfter((await writes.firstFailure()) ?? error, scope.lastFailure());
    });
    // Every statement has answered by now. PostgreSQL answers the COMMIT of a transaction that a failed statement
    // aborted with ROLLBACK, not an error; a failure despite a COMMIT answered COMMIT was BEGIN's, and each
    // statement after it committed alone: reported, and the connection, in a state nobody chose, dropped.
    const failed = await writes.firstFailure();
    if (failed !== undefined && committed) connection.__knex__disposed = failed;
    if (failed !== undefined) throw refusedAfter(failed, scope.lastFailure());
    if (!committed) throw new TransactionRolledBackError(scope.lastFailure());
    for (const effect of effects) effect();
    return result;
  }

  /** Whether the server carried `sql`, the transaction's last statement, out as a COMMIT. */
  private async ending(connection: PooledConnection, sql: 'COMMIT' | 'ROLLBACK'): Promise<boolean> {
    const answer = (await this.client.query(connection, sql)) as { response?: { command?: string } };
    return answer.response?.command === 'COMMIT';
  }
}

/** Why a transaction or savepoint cannot commit: what was sent through it while isolated work in it ran was undone with that work. */
export class UndoneByIsolatedWorkError extends Error {
  constructor() {
    super('a statement sent through an enclosing transaction or savepoint while isolated work in it ran was undone with that work');
  }
}

/** A COMMIT the server carried out as a ROLLBACK: nothing of the transaction was kept. */
export class TransactionRolledBackError extends Error {
  /** `cause`: the statement's failure, where it went through the transaction's scope. */
  constructor(cause: unknown) {
    super('the transaction was rolled back at COMMIT: a statement of it had failed, and nothing of it was kept', cause === undefined ? {} : { cause });
  }
}

/** A connection of Knex's pool; one marked disposed is dropped, not handed out again (Knex's PostgreSQL dialect). */
interface PooledConnection {
  readonly pipeline?: boolean;
  __knex__disposed?: unknown;
}

/** Knex's client as the transaction uses it (query() is not in its typings). */
interface ConnectionClient {
  acquireConnection(): Promise<PooledConnection>;
  releaseConnection(connection: PooledConnection): Promise<unknown>;
  query(connection: PooledConnection, sql: string): Promise<unknown>;
}

/**
 * Bound to one open transaction: its `run`s join it (costing no statement) and its reads see its uncommitted
 * writes; `isolated` costs a savepoint, in which its runs and reads take place until the isolated work settles.
 */
export class BoundKnexUnitOfWork implements UnitOfWork<TransactionScope> {
  /** The transaction, then each savepoint open in it, innermost last. */
  private readonly opened: Open[];

  constructor(
    transaction: Open,
    private readonly effects: Effects,
  ) {
    this.opened = [transaction];
  }

  readonly executor = (): Knex => this.innermost().trx;

  run<T>(work: (tx: TransactionScope) => Promise<T>): Promise<T> {
    // Joined work reports a conflict too: the request's handler sees the joined failure before the transaction ends.
    return conflictsAsDomain(this.join(work));
  }

  async isolated<T>(work: () => Promise<T>): Promise<T> {
    const outer = this.innermost();
    // SQL on the transaction's own connection (see statement-scope.ts). Named by depth, as they nest.
    const savepoint = `isolated_${this.opened.length}`;
    await outer.writes.send(`savepoint_${savepoint}`, `SAVEPOINT ${savepoint}`, []);
    const enclosing = [...this.opened];
    const sentBefore = enclosing.map((level) => level.scope.sent());
    const scope = statementScope(outer.trx);
    const open = { trx: scope.trx, writes: outer.writes.nested(scope.trx), scope };
    this.opened.push(open);
    let result: T;
    try {
      result = await committing(open, work);
    } catch (error) {
      this.close(open);
      // A statement sent straight through an enclosing scope meanwhile ran in the savepoint, and ROLLBACK TO undoes
      // it (or the abort its failure caused) behind that scope's back: its level must not commit as if it had run.
      // A scope counts its inner scopes' statements too: what a level sent itself is its count less the next's.
      const sentSince = (level: Open, before = 0) => level.scope.sent() - before;
      enclosing.forEach((level, depth) => {
        const inner = depth + 1 < enclosing.length ? sentSince(enclosing[depth + 1], sentBefore[depth + 1]) : sentSince(open);
        if (sentSince(level, sentBefore[depth]) > inner) level.rollbackOnly ??= { cause: new UndoneByIsolatedWorkError() };
      });
      // Released too, so that a transaction refusing isolated work many times does not pile its savepoints up.
      const undone = outer.writes
        .send(`rollback_to_${savepoint}`, `ROLLBACK TO SAVEPOINT ${savepoint}`, [])
        .then(() => outer.writes.send(`release_${savepoint}`, `RELEASE SAVEPOINT ${savepoint}`, []));
      // Not undone, the work's writes would commit with the transaction: it must not, and the work's error says why.
      await undone.catch((failed: unknown) => {
        outer.rollbackOnly ??= { cause: failed };
      });
      throw error;
    }
    this.close(open);
    // Its writes sent without waiting and the RELEASE go out with the statement after them, and the transaction's
    // end checks them: one that failed has aborted the whole transaction, which then fails with its error.
    const ownWrites = open.writes.firstFailure().then((failed) => {
      if (failed !== undefined) throw failed;
    });
    await outer.writes.track(ownWrites);
    await outer.writes.send(`release_${savepoint}`, `RELEASE SAVEPOINT ${savepoint}`, []);
    return result;
  }

  inTransaction(): boolean {
    return true;
  }

  afterCommit(effect: () => void): void {
    this.effects.push(effect);
  }

  begin<T>(work: (bound: BoundKnexUnitOfWork) => Promise<T>): Promise<T> {
    return work(this);
  }

  private async join<T>(work: (tx: TransactionScope) => Promise<T>): Promise<T> {
    const open = this.innermost();
    try {
      return await work(knexScope(open));
    } catch (error) {
      open.rollbackOnly ??= { cause: error };
      throw error;
    }
  }

  /** Savepoints end innermost first: isolated work side by side on one transaction would end another's. */
  private close(open: Open): void {
    if (this.opened[this.opened.length - 1] !== open) throw new Error('isolated work ran side by side with other isolated work on one transaction');
    this.opened.pop();
    open.scope.end();
  }

  private innermost(): Open {
    const open = this.opened[this.opened.length - 1];
    if (open.trx.isCompleted()) throw new TransactionEndedError();
    return open;
  }
}

/** Runs `work` as the body of a transaction or savepoint, which must not commit if joined work failed in it. */
async function committing<T>(open: Open, work: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await work();
  } catch (error) {
    // A failed write sent without waiting makes every later statement fail as "transaction aborted": it is the cause.
    throw (await open.writes.firstFailure()) ?? error;
  }
  if (open.rollbackOnly) throw new RollbackOnlyError(open.rollbackOnly.cause);
  return result;
}
