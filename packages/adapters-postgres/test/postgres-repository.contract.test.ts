import type { DomainEvent } from '@rcs/domain';
import { repositoryContract } from '@rcs/domain/testing';
import { knexStorage } from '../src/knex-storage';
import { itOnRealServer, openTestDatabase } from '../testing';

describe(`PostgreSQL adapters (${process.env.RCS_TEST_STORAGE})`, () => {
  repositoryContract(async () => {
    const db = await openTestDatabase();
    return {
      ...knexStorage(db.knex),
      readOutbox: async (customerId) => {
        const rows = await db.knex('outbox_events').where({ customer_id: customerId }).orderBy('seq');
        return rows.map((row): DomainEvent & { id: string } => ({
          id: row.id,
          customerId: Number(row.customer_id),
          type: row.type,
          occurredAt: row.occurred_at,
          data: row.data,
        }));
      },
      close: () => db.close(),
    };
  }, itOnRealServer("transactions racing need two connections; on PGlite's one they run one after another"));
});
