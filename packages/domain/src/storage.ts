import type { UnitOfWork } from './shared/unit-of-work';
import type { TransactionScope } from './transaction-scope';
import type { CustomerQueries } from './customers/customer-repository';
import type { ClientQueries } from './clients/client-repository';
import type { AssociateQueries } from './associates/associate-repository';
import type { ReceivableAccountQueries } from './receivable-accounts/receivable-account-repository';
import type { ReceivableQueries } from './receivables/receivable-repository';
import type { RouteSettlementQueries } from './route-settlements/route-settlement-repository';
import type { LedgerQueries } from './ledger/ledger-repository';
import type { CurrentAccountQueries } from './current-accounts/current-account-queries';
import type { SettlementQueries } from './settlements/settlement-repository';
import type { TransferQueries } from './transfers/transfer-repository';
import type { ContactQueries } from './contacts/contact-repository';
import type { EventQueries } from './events/event-feed';
import type { WebhookQueries } from './webhooks/webhook-ports';

/** Every read port: list pages and single reads straight from storage, outside the write model. */
export interface ApplicationQueries {
  readonly customerQueries: CustomerQueries;
  readonly clientQueries: ClientQueries;
  readonly associateQueries: AssociateQueries;
  readonly receivableAccountQueries: ReceivableAccountQueries;
  readonly receivableQueries: ReceivableQueries;
  readonly routeSettlementQueries: RouteSettlementQueries;
  readonly ledgerQueries: LedgerQueries;
  readonly currentAccountQueries: CurrentAccountQueries;
  readonly settlementQueries: SettlementQueries;
  readonly transferQueries: TransferQueries;
  readonly contactQueries: ContactQueries;
  readonly eventQueries: EventQueries;
  readonly webhookQueries: WebhookQueries;
}

/**
 * What reaches stored state: the unit of work and the read ports, free (each `run` a transaction of its own, reads
 * on committed state) or bound to one open transaction.
 */
export interface StoragePorts extends ApplicationQueries {
  /** Reaches every repository; each use case is handed it as the slice it declares. */
  readonly uow: UnitOfWork<TransactionScope>;
  /**
   * Opens one transaction and hands `work` these ports bound to it: their `run`s join it and their reads see its
   * uncommitted writes (an answer built from what the request wrote). It commits when `work` resolves and rolls
   * back when it throws or when work joined to it failed. Bound ports' `begin` opens no other: it hands them.
   */
  begin<T>(work: (bound: StoragePorts) => Promise<T>): Promise<T>;
}

/** A unit of work whose `begin` hands one of its own kind bound to a transaction (itself, when bound already). */
interface Beginning<U extends UnitOfWork<TransactionScope>> extends UnitOfWork<TransactionScope> {
  begin<T>(work: (bound: U) => Promise<T>): Promise<T>;
}

/**
 * The storage ports over `uow`, its read ports made by `queriesOf`: `begin` hands the same ports made over the bound
 * unit of work, or these very ports when `uow` is bound already. Every adapter builds its ports so.
 */
export function storagePortsOn<U extends Beginning<U>>(uow: U, queriesOf: (uow: U) => ApplicationQueries): StoragePorts {
  const ports: StoragePorts = {
    uow,
    ...queriesOf(uow),
    begin: (work) => uow.begin((bound) => work(bound === uow ? ports : storagePortsOn(bound, queriesOf))),
  };
  return ports;
}
