import type { DomainEvent } from '@rcs/domain';
import { repositoryContract } from '@rcs/domain/testing';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { KnexClientQueries } from '../src/repositories/knex-client-repository';
import { KnexAssociateQueries } from '../src/repositories/knex-associate-repository';
import { KnexReceivableAccountQueries } from '../src/repositories/knex-receivable-account-queries';
import { KnexReceivableQueries } from '../src/repositories/knex-receivable-queries';
import { KnexRouteSettlementQueries } from '../src/repositories/knex-route-settlement-repository';
import { KnexLedgerQueries } from '../src/repositories/knex-ledger';
import { KnexSettlementQueries } from '../src/repositories/knex-settlements';
import { KnexCurrentAccountQueries } from '../src/repositories/knex-current-account-repository';
import { openTestDatabase } from '../testing';

describe(`PostgreSQL adapters (${process.env.RCS_TEST_STORAGE})`, () => {
  repositoryContract(async () => {
    const db = await openTestDatabase();
    const uow = new KnexUnitOfWork(db.knex);
    return {
      uow,
      clientQueries: new KnexClientQueries(uow.executor),
      associateQueries: new KnexAssociateQueries(uow.executor),
      receivableAccountQueries: new KnexReceivableAccountQueries(uow.executor),
      receivableQueries: new KnexReceivableQueries(uow.executor),
      routeSettlementQueries: new KnexRouteSettlementQueries(uow.executor),
      ledgerQueries: new KnexLedgerQueries(uow.executor),
      currentAccountQueries: new KnexCurrentAccountQueries(uow.executor),
      settlementQueries: new KnexSettlementQueries(uow.executor),
      readOutbox: async (customerId) => {
        const rows = await db.knex('outbox_events').where({ customer_id: customerId }).orderBy('seq');
        return rows.map(
          (row): DomainEvent & { id: string } => ({
            id: row.id,
            customerId: Number(row.customer_id),
            type: row.type,
            occurredAt: row.occurred_at,
            data: row.data,
          }),
        );
      },
      close: () => db.close(),
    };
  });
});
