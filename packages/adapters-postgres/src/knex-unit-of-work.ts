import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';
import type { TransactionScope, UnitOfWork } from '@rcs/domain';
import { KnexCustomerRepository, KnexCredentialRepository } from './repositories/knex-customer-repositories';
import { KnexCurrentAccountRepository } from './repositories/knex-current-account-repository';
import { KnexClientRepository } from './repositories/knex-client-repository';
import { KnexAssociateRepository } from './repositories/knex-associate-repository';
import { KnexReceivableAccountRepository } from './repositories/knex-receivable-account-repository';
import { KnexReceivableRepository } from './repositories/knex-receivable-repository';
import { KnexRouteSettlementRepository } from './repositories/knex-route-settlement-repository';
import { KnexLedgerRepository } from './repositories/knex-ledger';
import { KnexSettlementRepository } from './repositories/knex-settlements';
import { KnexIdempotencyRepository } from './repositories/knex-idempotency-repository';
import { KnexOutbox } from './repositories/knex-outbox';

function knexScope(trx: Knex.Transaction): TransactionScope {
  return {
    customers: new KnexCustomerRepository(trx),
    credentials: new KnexCredentialRepository(trx),
    currentAccounts: new KnexCurrentAccountRepository(trx),
    clients: new KnexClientRepository(trx),
    associates: new KnexAssociateRepository(trx),
    receivableAccounts: new KnexReceivableAccountRepository(trx),
    receivables: new KnexReceivableRepository(trx),
    routeSettlements: new KnexRouteSettlementRepository(trx),
    ledger: new KnexLedgerRepository(trx),
    settlements: new KnexSettlementRepository(trx),
    idempotency: new KnexIdempotencyRepository(trx),
    outbox: new KnexOutbox(trx),
  };
}

/**
 * One database transaction per outermost `run`. The open transaction travels with the async flow, so a `run`
 * started inside it (an HTTP idempotency scope around a use case) becomes a savepoint on the same connection
 * instead of asking the pool for a second one, which would deadlock on PGlite and exhaust a real pool.
 */
export class KnexUnitOfWork implements UnitOfWork {
  private readonly ambient = new AsyncLocalStorage<Knex.Transaction>();

  constructor(private readonly knex: Knex) {}

  /**
   * What a read should run on: the transaction open in this async flow, else the pool. Queries use it so a
   * response built inside an idempotent request sees that request's own uncommitted writes, on its connection.
   */
  readonly executor = (): Knex => this.open() ?? this.knex;

  run<T>(work: (tx: TransactionScope) => Promise<T>): Promise<T> {
    const begin = this.open() ?? this.knex;
    return begin.transaction((trx) => this.ambient.run(trx, () => work(knexScope(trx))));
  }

  /** The transaction of this async flow, unless it already ended (a callback outliving its request). */
  private open(): Knex.Transaction | undefined {
    const trx = this.ambient.getStore();
    return trx && !trx.isCompleted() ? trx : undefined;
  }
}
