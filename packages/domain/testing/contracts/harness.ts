import {
  DEFAULT_CUSTOMER_SETTINGS,
  type AssociateQueries,
  type ClientQueries,
  type DomainEvent,
  type ReceivableAccountQueries,
  type ReceivableQueries,
  type RouteSettlementQueries,
  type LedgerQueries,
  type CurrentAccountQueries,
  type SettlementQueries,
  type UnitOfWork,
} from '../../src';

/** What an adapter under contract offers; each adapter's test file builds one. */
export interface RepositoryHarness {
  readonly uow: UnitOfWork;
  readonly clientQueries: ClientQueries;
  readonly associateQueries: AssociateQueries;
  readonly receivableAccountQueries: ReceivableAccountQueries;
  readonly receivableQueries: ReceivableQueries;
  readonly routeSettlementQueries: RouteSettlementQueries;
  readonly ledgerQueries: LedgerQueries;
  readonly currentAccountQueries: CurrentAccountQueries;
  readonly settlementQueries: SettlementQueries;
  /** Events stored by the outbox, oldest first. */
  readOutbox(customerId: number): Promise<ReadonlyArray<DomainEvent & { id: string }>>;
  close(): Promise<void>;
}

export type HarnessFactory = () => Promise<RepositoryHarness>;

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
      const { customer } = await context.harness.uow.run((tx) =>
        tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name, creationDate: new Date() }),
      );
      return customer.id;
    },
  };
}
