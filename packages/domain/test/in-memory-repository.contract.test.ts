import { emptyTables, inMemoryStorage, repositoryContract } from '../testing';

describe('in-memory adapters', () => {
  // Its transactions queue one behind the other: the racing tests prove that queue keeps the fake honest.
  repositoryContract(() => {
    const store = { committed: emptyTables() };
    return Promise.resolve({
      ...inMemoryStorage(store),
      readOutbox: (customerId) => Promise.resolve(store.committed.outbox.filter((e) => e.customerId === customerId)),
      close: () => Promise.resolve(),
    });
  }, it);
});
