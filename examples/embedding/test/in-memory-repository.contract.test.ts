import { emptyTables, inMemoryQueries, InMemoryUnitOfWork, repositoryContract } from '@rcs/domain/testing';

// How a team proves its own storage adapter honours the domain's ports: build a harness of it and hand the suite
// a factory. Here the harness is the domain's in-memory adapters; a team's test swaps in its repositories.
describe('the repository contract from @rcs/domain/testing, on the in-memory adapters', () => {
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
