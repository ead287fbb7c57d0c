import { emptyTables, inMemoryQueries, InMemoryUnitOfWork, repositoryContract } from '../testing';

describe('in-memory adapters', () => {
  // Its transactions queue one behind the other: the racing tests prove that queue keeps the fake honest.
  repositoryContract(async () => {
    const store = { committed: emptyTables() };
    const uow = new InMemoryUnitOfWork(store);
    return {
      uow,
      ...inMemoryQueries(uow),
      readOutbox: async (customerId) => store.committed.outbox.filter((e) => e.customerId === customerId),
      close: async () => undefined,
    };
  }, it);
});
