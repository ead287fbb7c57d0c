import { emptyTables, inMemoryStorage, repositoryContract } from '@rcs/domain/testing';

// How a team proves its own storage adapter honours the domain's ports: build a harness of it and hand the suite
// a factory. Here the harness is the domain's in-memory adapters; a team's test swaps in its repositories.
describe('the repository contract from @rcs/domain/testing, on the in-memory adapters', () => {
  repositoryContract(() => {
    const store = { committed: emptyTables() };
    return Promise.resolve({
      ...inMemoryStorage(store),
      readOutbox: (customerId) => Promise.resolve(store.committed.outbox.filter((e) => e.customerId === customerId)),
      close: () => Promise.resolve(),
    });
  }, it);
});
