import type { Knex } from 'knex';
import { storagePortsOn, type ApplicationQueries, type StoragePorts } from '@rcs/domain';
import { KnexUnitOfWork, type BoundKnexUnitOfWork } from './knex-unit-of-work';
import { KnexCustomerQueries } from './repositories/knex-customer-repositories';
import { KnexClientQueries } from './repositories/knex-client-repository';
import { KnexAssociateQueries } from './repositories/knex-associate-repository';
import { KnexReceivableAccountQueries } from './repositories/knex-receivable-account-queries';
import { KnexReceivableQueries } from './repositories/knex-receivable-queries';
import { KnexRouteSettlementQueries } from './repositories/knex-route-settlement-repository';
import { KnexLedgerQueries } from './repositories/knex-ledger';
import { KnexCurrentAccountQueries } from './repositories/knex-current-account-repository';
import { KnexSettlementQueries } from './repositories/knex-settlements';
import { KnexTransferQueries } from './repositories/knex-transfer-repository';
import { KnexContactQueries } from './repositories/knex-contact-repository';
import { KnexEventQueries } from './repositories/knex-event-feed';
import { KnexWebhookQueries } from './repositories/knex-webhook-repository';

/** The storage ports on PostgreSQL: free ones over the pool, whose `begin` hands the same ports bound to a transaction. */
export function knexStorage(knex: Knex): StoragePorts {
  return storagePortsOn<KnexUnitOfWork | BoundKnexUnitOfWork>(new KnexUnitOfWork(knex), (uow) => knexQueries(uow.executor));
}

/** Every read port on PostgreSQL, each reading through `executor`: the pool, or the innermost of a bound transaction. */
function knexQueries(executor: () => Knex): ApplicationQueries {
  return {
    customerQueries: new KnexCustomerQueries(executor),
    clientQueries: new KnexClientQueries(executor),
    associateQueries: new KnexAssociateQueries(executor),
    receivableAccountQueries: new KnexReceivableAccountQueries(executor),
    receivableQueries: new KnexReceivableQueries(executor),
    routeSettlementQueries: new KnexRouteSettlementQueries(executor),
    ledgerQueries: new KnexLedgerQueries(executor),
    currentAccountQueries: new KnexCurrentAccountQueries(executor),
    settlementQueries: new KnexSettlementQueries(executor),
    transferQueries: new KnexTransferQueries(executor),
    contactQueries: new KnexContactQueries(executor),
    eventQueries: new KnexEventQueries(executor),
    webhookQueries: new KnexWebhookQueries(executor),
  };
}
