import { DEFAULT_CUSTOMER_SETTINGS, type DomainEvent, type StoragePorts } from '../../src';

/** What an adapter under contract offers; each adapter's test file builds one. */
export interface RepositoryHarness extends StoragePorts {
  /** Events stored by the outbox, oldest first. */
  readOutbox(customerId: number): Promise<ReadonlyArray<DomainEvent & { id: string }>>;
  close(): Promise<void>;
}

export type HarnessFactory = () => Promise<RepositoryHarness>;

/**
 * How an adapter's test file runs the tests of transactions racing each other: `it` where they truly race or are
 * queued by design (the in-memory unit of work), a skipping one where they would pass without racing.
 */
export type TestDefinition = (title: string, fn: jest.ProvidesCallback, timeout?: number) => void;

/** Opens a harness for a describe block and gives each test a fresh customer, so tests never share rows. */
export function useHarness(factory: HarnessFactory) {
  const context = {} as { harness: RepositoryHarness };
  let customers = 0;
  beforeAll(async () => {
    context.harness = await factory();
  });
  afterAll(async () => {
    await context.harness?.close();
  });
  return {
    get h(): RepositoryHarness {
      return context.harness;
    },
    async newCustomer(): Promise<number> {
      const name = `contract-${process.pid}-${Date.now()}-${++customers}`;
      const { customer } = await context.harness.uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name, creationDate: new Date() }));
      return customer.id;
    },
  };
}
