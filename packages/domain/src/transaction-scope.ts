import type { Outbox } from './shared/events';
import type { EventFeed } from './events/event-feed';
import type { ClientRepository } from './clients/client-repository';
import type { AssociateRepository } from './associates/associate-repository';
import type { CustomerRepository, CredentialRepository } from './customers/customer-repository';
import type { CurrentAccountRepository } from './current-accounts/current-account-repository';
import type { IdempotencyRepository } from './idempotency/idempotency-repository';
import type { ReceivableRepository } from './receivables/receivable-repository';
import type { RouteSettlementRepository } from './route-settlements/route-settlement-repository';
import type { LedgerRepository } from './ledger/ledger-repository';
import type { SettlementRepository } from './settlements/settlement-repository';
import type { ReceivableAccountRepository } from './receivable-accounts/receivable-account-repository';
import type { TransferRepository } from './transfers/transfer-repository';
import type { ContactRepository } from './contacts/contact-repository';
import type { WebhookDeliveryRepository, WebhookRepository } from './webhooks/webhook-ports';

/**
 * Everything one transaction can reach: every repository and the outbox share its fate. Use cases take a slice
 * of it (`UnitOfWork<Pick<TransactionScope, 'receivables' | 'outbox'>>`); adapters build the whole of it.
 */
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
  readonly transfers: TransferRepository;
  readonly contacts: ContactRepository;
  readonly webhooks: WebhookRepository;
  readonly webhookDeliveries: WebhookDeliveryRepository;
  readonly idempotency: IdempotencyRepository;
  readonly outbox: Outbox;
  readonly eventFeed: EventFeed;
}
