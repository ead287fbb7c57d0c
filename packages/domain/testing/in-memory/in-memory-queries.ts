import type { ApplicationQueries } from '../../src';
import type { InMemoryUnitOfWork } from './in-memory-unit-of-work';
import { InMemoryCustomerQueries } from './in-memory-customer-repositories';
import { InMemoryClientQueries } from './in-memory-client-repository';
import { InMemoryAssociateQueries } from './in-memory-associate-repository';
import { InMemoryReceivableAccountQueries } from './in-memory-receivable-account-repository';
import { InMemoryReceivableQueries } from './in-memory-receivable-repository';
import { InMemoryRouteSettlementQueries } from './in-memory-route-settlement-repository';
import { InMemoryCurrentAccountQueries, InMemoryLedgerQueries } from './in-memory-ledger';
import { InMemorySettlementQueries } from './in-memory-settlements';
import { InMemoryTransferQueries } from './in-memory-transfer-repository';
import { InMemoryContactQueries } from './in-memory-contact-repository';
import { InMemoryEventQueries } from './in-memory-event-feed';
import { InMemoryWebhookQueries } from './in-memory-webhook-repository';

/** Every read port in memory, each reading the open transaction's working copy when there is one. */
export function inMemoryQueries(uow: InMemoryUnitOfWork): ApplicationQueries {
  return {
    customerQueries: new InMemoryCustomerQueries(uow),
    clientQueries: new InMemoryClientQueries(uow),
    associateQueries: new InMemoryAssociateQueries(uow),
    receivableAccountQueries: new InMemoryReceivableAccountQueries(uow),
    receivableQueries: new InMemoryReceivableQueries(uow),
    routeSettlementQueries: new InMemoryRouteSettlementQueries(uow),
    ledgerQueries: new InMemoryLedgerQueries(uow),
    currentAccountQueries: new InMemoryCurrentAccountQueries(uow),
    settlementQueries: new InMemorySettlementQueries(uow),
    transferQueries: new InMemoryTransferQueries(uow),
    contactQueries: new InMemoryContactQueries(uow),
    eventQueries: new InMemoryEventQueries(uow),
    webhookQueries: new InMemoryWebhookQueries(uow),
  };
}
