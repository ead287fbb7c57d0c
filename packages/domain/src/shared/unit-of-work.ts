import type { Outbox } from './events';
import type { ClientRepository } from '../clients/client-repository';
import type { AssociateRepository } from '../associates/associate-repository';
import type { CustomerRepository, CredentialRepository } from '../customers/customer-repository';
import type { CurrentAccountRepository } from '../current-accounts/current-account-repository';
import type { IdempotencyRepository } from '../idempotency/idempotency-repository';
import type { ReceivableRepository } from '../receivables/receivable-repository';
import type { RouteSettlementRepository } from '../route-settlements/route-settlement-repository';
import type { LedgerRepository } from '../ledger/ledger-repository';
import type { SettlementRepository } from '../settlements/settlement-repository';
import type { ReceivableAccountRepository } from '../receivable-accounts/receivable-account-repository';

/** What one transaction can reach: every repository and the outbox share its fate. */
export interface TransactionScope {
  readonly customers: CustomerRepository;
  readonly credentials: CredentialRepository;
  readonly currentAccounts: CurrentAccountRepository;
  readonly clients: ClientRepository;
  readonly associates: AssociateRepository;
  readonly receivableAccounts: ReceivableAccountRepository;
  readonly receivables: ReceivableRepository;
  readonly routeSettlements: RouteSettlementRepository;
  readonly ledger: LedgerRepository;
  readonly settlements: SettlementRepository;
  readonly idempotency: IdempotencyRepository;
  readonly outbox: Outbox;
}

/**
 * The transaction boundary. `run` commits when `work` resolves and rolls everything back when it throws.
 *
 * A `run` started inside another one (same async flow) joins that transaction: no savepoint, so no extra round
 * trips on the hot path. If the joined work throws, the transaction becomes rollback-only: it can no longer
 * commit, even if the outer work catches the error, so a failed step never leaves half its writes behind.
 * Work that must survive its own failure (a batch item) asks for `isolated`.
 */
export interface UnitOfWork {
  run<T>(work: (tx: TransactionScope) => Promise<T>): Promise<T>;
  /**
   * Runs `work` so that its failure undoes only its own writes and leaves the open transaction usable (a
   * savepoint); with no transaction open, `work` runs as it is (its own `run`s are then transactions).
   */
  isolated<T>(work: () => Promise<T>): Promise<T>;
}

/** Thrown by the outermost `run` when joined work failed and the transaction was marked rollback-only. */
export class RollbackOnlyError extends Error {
  constructor(cause: unknown) {
    super('the transaction is rollback-only: work joined to it failed, so it was rolled back', { cause });
  }
}
