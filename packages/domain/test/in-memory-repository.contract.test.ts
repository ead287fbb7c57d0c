import { emptyTables, inMemoryQueries, InMemoryUnitOfWork, repositoryContract } from '../testing';

describe('in-memory adapters', () => {
  // Its transactions queue one behind the other: the racing tests prove that queue keeps the fake honest.
  repositoryContract(() => {
    const store = { committed: emptyTables() };
    const uow = new InMemoryUnitOfWork(store);
    return Promise.resolve({
      uow,
      ...inMemoryQueries(uow),
      readOutbox: (customerId) => Promise.resolve(store.committed.outbox.filter((e) => e.customerId === customerId)),
      close: () => Promise.resolve(),
    });
  }, it);
});
