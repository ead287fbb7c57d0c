import { Money, RecordCollection, type Movement } from '@rcs/domain';
import { itOnRealServer, openTestDatabase, type TestDatabase } from '@rcs/adapters-postgres/testing';
import { systemClock } from '../src/container';
import { instanceOn, seedMoney } from './support/settlement-world';

/** The provider's notifications of one transfer record it once, however they arrive. */
describe('two notifications of one incoming transfer at the same moment', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db.close());

  itOnRealServer('the two notifications hold two connections at once; PGlite has one')(
    'records the transfer once and refuses the second, which names another CVU, as a conflicting repeat once the first commits',
    async () => {
      const instance = instanceOn(db);
      try {
        const { customerId } = await seedMoney(db, instance.app, 2);
        const [a, b] = await db.knex('receivable_accounts').where({ customer_id: customerId }).orderBy('id').select<{ cvu: string }[]>('cvu');
        const notification = (cvu: string) => ({
          providerReference: `race-${process.pid}-${Date.now()}`,
          cvu,
          amount: Money.parse('12.34'),
          currencyCode: 'ARS',
          counterParty: { name: 'Payer', taxId: '20123456786' },
        });
        const first = notification(a.cvu);
        let second: Promise<{ movement: Movement; recorded: boolean }> | undefined;
        const recorded = await instance.storage.begin(async (bound) => {
          const outcome = await new RecordCollection(bound.uow, systemClock).fromProvider(first);
          // Before the fix the second, on another account's lock, met the first's uncommitted movement in the
          // unique index, waited for it, and failed (a 500) once it committed; now it waits at the reference and
          // finds the first, recorded on another account.
          second = instance.app.collections.record.fromProvider({ ...notification(b.cvu), providerReference: first.providerReference });
          await Promise.race([second, new Promise((resolve) => setTimeout(resolve, 1_000))]);
          return outcome;
        });
        expect(recorded.recorded).toBe(true);
        await expect(second).rejects.toMatchObject({ code: 'idempotency-key-reuse' });
        expect(await db.knex('movements').where({ provider_reference: first.providerReference }).count()).toEqual([{ count: '1' }]);
        expect(await instance.app.ledger.verify.execute()).toEqual([]);
      } finally {
        await instance.knex.destroy();
      }
    },
  );
});
