import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';
import { lazyScope, RollbackOnlyError, TransactionConflictError, type TransactionScope, type UnitOfWork } from '@rcs/domain';
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
import { isTransactionConflict } from './repositories/pg-errors';

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
  webhookDeliveries: ({ trx }) => new KnexWebhookDeliveryRepository(trx),
  idempotency: ({ trx, writes }) => new KnexIdempotencyRepository(trx, writes),
  outbox: ({ writes }) => new KnexOutbox(writes),
  eventFeed: ({ trx }) => new KnexEventFeed(trx),
});

/**
 * The transaction of one async flow: the knex transaction (or savepoint), its writes sent without waiting, and
 * whether joined work failed in it.
 */
interface Ambient extends Connection {
  rollbackOnly?: { cause: unknown };
}

/**
 * One database transaction per outermost `run`. The open transaction travels with the async flow, so a `run`
 * started inside it joins it on the same connection instead of asking the pool for a second one, which would
 * deadlock on PGlite and exhaust a real pool. Joining costs no statement; `isolated` costs a savepoint.
 */
export class KnexUnitOfWork implements UnitOfWork<TransactionScope> {
  private readonly ambient = new AsyncLocalStorage<Ambient>();

  constructor(private readonly knex: Knex) {}

  /**
   * What a read should run on: the transaction open in this async flow, else the pool. Queries use it so a
   * response built inside an idempotent request sees that request's own uncommitted writes, on its connection.
   */
  readonly executor = (): Knex => this.open()?.trx ?? this.knex;

  run<T>(work: (tx: TransactionScope) => Promise<T>): Promise<T> {
    const outer = this.open();
    // A deadlock victim is the caller's to retry (409), not a fault of the service (500); joined work reports it
    // too, since the request's handler sees the joined failure before the outermost transaction ends.
    return (outer ? this.join(outer, work) : this.outermost(work)).catch((error: unknown) => {
      throw isTransactionConflict(error) ? new TransactionConflictError() : error;
    });
  }

  async isolated<T>(work: () => Promise<T>): Promise<T> {
    const outer = this.open();
    if (!outer) return work();
    // Set up without a container, so that this code, not Knex, decides when the savepoint is released.
    const savepoint = await outer.trx.transaction();
    const writes = await writesOf(savepoint);
    let result: T;
    try {
      result = await this.committing({ trx: savepoint, writes }, work);
    } catch (error) {
      await savepoint.rollback(error);
      throw error;
    }
    // Its writes sent without waiting and the RELEASE go out with the statement after them, and the transaction's
    // end checks them: one that failed has aborted the whole transaction, which then fails with its error.
    const ownWrites = writes.firstFailure().then((failed) => {
      if (failed !== undefined) throw failed;
    });
    await outer.writes.track(ownWrites);
    void savepoint.commit();
    await outer.writes.track(savepoint.executionPromise);
    return result;
  }

  inTransaction(): boolean {
    return this.open() !== undefined;
  }

  private async outermost<T>(work: (tx: TransactionScope) => Promise<T>): Promise<T> {
    let writes: TransactionWrites | undefined;
    const result = await this.knex.transaction(async (trx) => {
      writes = await writesOf(trx);
      const ambient = { trx, writes };
      return this.committing(ambient, () => work(knexScope(ambient)));
    });
    // The COMMIT went out behind the writes sent without waiting: if one of them failed, it was a rollback.
    const failed = await writes?.firstFailure();
    if (failed !== undefined) throw failed;
    return result;
  }

  /** Runs `work` as the body of a transaction or savepoint, which must not commit if joined work failed in it. */
  private async committing<T>(ambient: Ambient, work: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await this.ambient.run(ambient, work);
    } catch (error) {
      // A failed write sent without waiting makes every later statement fail as "transaction aborted": it is the cause.
      throw (await ambient.writes.firstFailure()) ?? error;
    }
    if (ambient.rollbackOnly) throw new RollbackOnlyError(ambient.rollbackOnly.cause);
    return result;
  }

  private async join<T>(outer: Ambient, work: (tx: TransactionScope) => Promise<T>): Promise<T> {
    try {
      return await work(knexScope(outer));
    } catch (error) {
      outer.rollbackOnly ??= { cause: error };
      throw error;
    }
  }

  /** The transaction of this async flow, unless it already ended (a callback outliving its request). */
  private open(): Ambient | undefined {
    const ambient = this.ambient.getStore();
    return ambient && !ambient.trx.isCompleted() ? ambient : undefined;
  }
}

/** The write queue of a transaction or savepoint, on its connection; pipelined when the connection is. */
async function writesOf(trx: Knex.Transaction): Promise<TransactionWrites> {
  const connection: unknown = await (trx.client as Knex.Client).acquireConnection();
  return new TransactionWrites(trx, connection, (connection as { pipeline?: boolean }).pipeline === true);
}
