import type { ApplicationQueries } from '@rcs/domain';
import type { KnexUnitOfWork } from './knex-unit-of-work';
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

/** Every read port on PostgreSQL, each reading through the unit of work's ambient transaction when there is one. */
export function knexQueries(uow: KnexUnitOfWork): ApplicationQueries {
  return {
    customerQueries: new KnexCustomerQueries(uow.executor),
    clientQueries: new KnexClientQueries(uow.executor),
    associateQueries: new KnexAssociateQueries(uow.executor),
    receivableAccountQueries: new KnexReceivableAccountQueries(uow.executor),
    receivableQueries: new KnexReceivableQueries(uow.executor),
    routeSettlementQueries: new KnexRouteSettlementQueries(uow.executor),
    ledgerQueries: new KnexLedgerQueries(uow.executor),
    currentAccountQueries: new KnexCurrentAccountQueries(uow.executor),
    settlementQueries: new KnexSettlementQueries(uow.executor),
    transferQueries: new KnexTransferQueries(uow.executor),
    contactQueries: new KnexContactQueries(uow.executor),
    eventQueries: new KnexEventQueries(uow.executor),
    webhookQueries: new KnexWebhookQueries(uow.executor),
  };
}
