import { InMemoryCurrentAccountQueries, InMemoryLedgerQueries, InMemorySettlementQueries, InMemoryReceivableAccountQueries, InMemoryReceivableQueries, InMemoryRouteSettlementQueries, emptyTables, InMemoryUnitOfWork, InMemoryClientQueries, InMemoryAssociateQueries, repositoryContract } from '../testing';

describe('in-memory adapters', () => {
  repositoryContract(async () => {
    const store = { committed: emptyTables() };
    const uow = new InMemoryUnitOfWork(store);
    return {
      uow,
      clientQueries: new InMemoryClientQueries(uow),
      associateQueries: new InMemoryAssociateQueries(uow),
      receivableAccountQueries: new InMemoryReceivableAccountQueries(uow),
      receivableQueries: new InMemoryReceivableQueries(uow),
      routeSettlementQueries: new InMemoryRouteSettlementQueries(uow),
      ledgerQueries: new InMemoryLedgerQueries(uow),
      currentAccountQueries: new InMemoryCurrentAccountQueries(uow),
      settlementQueries: new InMemorySettlementQueries(uow),
      readOutbox: async (customerId) => store.committed.outbox.filter((e) => e.customerId === customerId),
      close: async () => undefined,
    };
  });
});
