import { DEFAULT_CUSTOMER_SETTINGS, type DomainEvent } from '@rcs/domain';
import { KnexUnitOfWork } from '../../src/knex-unit-of-work';
import { openTestDatabase, type TestDatabase } from '../../testing';

const T0 = new Date('2026-03-01T10:00:00.000Z');

/** A customer id beyond bigint: the server refuses the insert of an event for it. */
export const OUT_OF_RANGE = 1e19;

/**
 * What the tests of transactions share: a test database of one connection (so every transaction runs on the same
 * one), a unit of work on it, and a customer named `name` whose events they write (`event`) and read back in
 * order (`stored`), none left over from the test before. Read its fields once the file's hooks have run.
 */
export function oneCustomerEvents(name: string) {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;
  let customerId: number;
  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: 1 });
    uow = new KnexUnitOfWork(db.knex);
    ({
      customer: { id: customerId },
    } = await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name, creationDate: T0 })));
  });
  afterAll(async () => db.close());
  beforeEach(async () => {
    await db.knex('outbox_events').where({ customer_id: customerId }).delete();
  });
  return {
    get db() {
      return db;
    },
    get uow() {
      return uow;
    },
    get customerId() {
      return customerId;
    },
    event: (id: number, forCustomer = customerId): DomainEvent => ({ customerId: forCustomer, type: 'receivable.created', occurredAt: T0, data: { id } }),
    stored: async (): Promise<unknown[]> => (await db.knex('outbox_events').where({ customer_id: customerId }).orderBy('seq')).map((row) => row.data.id),
  };
}
