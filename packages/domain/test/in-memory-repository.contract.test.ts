import { emptyTables, inMemoryQueries, InMemoryUnitOfWork, repositoryContract } from '../testing';

describe('in-memory adapters', () => {
  repositoryContract(async () => {
    const store = { committed: emptyTables() };
    const uow = new InMemoryUnitOfWork(store);
    return {
      uow,
      ...inMemoryQueries(uow),
      readOutbox: async (customerId) => store.committed.outbox.filter((e) => e.customerId === customerId),
      close: async () => undefined,
    };
  });
});
