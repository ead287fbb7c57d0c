import { lazyScope, type TransactionScope } from '../../src';
import type { TablesRef } from './in-memory-tables';
import { InMemoryCustomerRepository, InMemoryCredentialRepository } from './in-memory-customer-repositories';
import { InMemoryCurrentAccountRepository } from './in-memory-current-account-repository';
import { InMemoryClientRepository } from './in-memory-client-repository';
import { InMemoryAssociateRepository } from './in-memory-associate-repository';
import { InMemoryReceivableAccountRepository } from './in-memory-receivable-account-repository';
import { InMemoryReceivableRepository } from './in-memory-receivable-repository';
import { InMemoryRouteSettlementRepository } from './in-memory-route-settlement-repository';
import { InMemoryLedgerRepository } from './in-memory-ledger';
import { InMemorySettlementRepository } from './in-memory-settlements';
import { InMemoryTransferRepository } from './in-memory-transfer-repository';
import { InMemoryIdempotencyRepository } from './in-memory-idempotency-repository';
import { InMemoryOutbox } from './in-memory-outbox';
import { InMemoryContactRepository } from './in-memory-contact-repository';
import { InMemoryEventFeed } from './in-memory-event-feed';
import { InMemoryWebhookDeliveryRepository, InMemoryWebhookRepository } from './in-memory-webhook-repository';

export const inMemoryScope = lazyScope<TablesRef, TransactionScope>({
  customers: (ref) => new InMemoryCustomerRepository(ref),
  credentials: (ref) => new InMemoryCredentialRepository(ref),
  currentAccounts: (ref) => new InMemoryCurrentAccountRepository(ref),
  clients: (ref) => new InMemoryClientRepository(ref),
  associates: (ref) => new InMemoryAssociateRepository(ref),
  receivableAccounts: (ref) => new InMemoryReceivableAccountRepository(ref),
  receivables: (ref) => new InMemoryReceivableRepository(ref),
  routeSettlements: (ref) => new InMemoryRouteSettlementRepository(ref),
  ledger: (ref) => new InMemoryLedgerRepository(ref),
  settlements: (ref) => new InMemorySettlementRepository(ref),
  transfers: (ref) => new InMemoryTransferRepository(ref),
  contacts: (ref) => new InMemoryContactRepository(ref),
  webhooks: (ref) => new InMemoryWebhookRepository(ref),
  webhookDeliveries: (ref) => new InMemoryWebhookDeliveryRepository(ref),
  idempotency: (ref) => new InMemoryIdempotencyRepository(ref),
  outbox: (ref) => new InMemoryOutbox(ref),
  eventFeed: (ref) => new InMemoryEventFeed(ref),
});
