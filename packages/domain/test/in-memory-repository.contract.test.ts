import { InMemoryReceivableAccountQueries, emptyTables, InMemoryUnitOfWork, InMemoryClientQueries, InMemoryAssociateQueries, repositoryContract } from '../testing';

describe('in-memory adapters', () => {
  repositoryContract(async () => {
    const store = { committed: emptyTables() };
    return {
      uow: new InMemoryUnitOfWork(store),
      clientQueries: new InMemoryClientQueries(store),
      associateQueries: new InMemoryAssociateQueries(store),
      receivableAccountQueries: new InMemoryReceivableAccountQueries(store),
      readOutbox: async (customerId) => store.committed.outbox.filter((e) => e.customerId === customerId),
      close: async () => undefined,
    };
  });
});
