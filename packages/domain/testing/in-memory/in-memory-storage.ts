import { storagePortsOn, type ApplicationQueries, type StoragePorts } from '../../src';
import { InMemoryUnitOfWork, type BoundInMemoryUnitOfWork } from './in-memory-unit-of-work';
import type { Tables, TablesSource } from './in-memory-tables';
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

/** The storage ports in memory: free ones on the committed tables, whose `begin` hands the same ports bound to a transaction. */
export function inMemoryStorage(store: { committed: Tables }): StoragePorts {
  return storagePortsOn<InMemoryUnitOfWork | BoundInMemoryUnitOfWork>(new InMemoryUnitOfWork(store), inMemoryQueries);
}

/** Every read port in memory, each reading what `source` sees: committed tables, or a transaction's working copy. */
function inMemoryQueries(source: TablesSource): ApplicationQueries {
  return {
    customerQueries: new InMemoryCustomerQueries(source),
    clientQueries: new InMemoryClientQueries(source),
    associateQueries: new InMemoryAssociateQueries(source),
    receivableAccountQueries: new InMemoryReceivableAccountQueries(source),
    receivableQueries: new InMemoryReceivableQueries(source),
    routeSettlementQueries: new InMemoryRouteSettlementQueries(source),
    ledgerQueries: new InMemoryLedgerQueries(source),
    currentAccountQueries: new InMemoryCurrentAccountQueries(source),
    settlementQueries: new InMemorySettlementQueries(source),
    transferQueries: new InMemoryTransferQueries(source),
    contactQueries: new InMemoryContactQueries(source),
    eventQueries: new InMemoryEventQueries(source),
    webhookQueries: new InMemoryWebhookQueries(source),
  };
}
