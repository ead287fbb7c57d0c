import { anAssociateDetails } from '@rcs/domain/testing';
import {
  IssueReceivable,
  IssueReceivablesBatch,
  Money,
  type IssueReceivableInput,
  type Receivable,
  type SettlementRunResult,
  type UnitOfWork,
  type TransactionScope,
} from '@rcs/domain';
import { itOnRealServer, openTestDatabase, type TestDatabase } from '@rcs/adapters-postgres/testing';
import { systemClock } from '../src/container';
import { instanceOn, seedMoney } from './support/settlement-world';

/** SPEC rule 8: active children follow their parent to SETTLED, even one issued while the parent's account is being settled. */
describe('settling a parent while a child of it is issued', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db.close());

  it("locks a batch's accounts before its parents, so it never waits for an account while holding a receivable", async () => {
    // A single issue of a child holds its account, then waits for the parent: a batch that locked the parent
    // first and the account after (to bind an associate, or to keep it from the settlement) deadlocked with it.
    const instance = instanceOn(db);
    try {
      const { customerId } = await seedMoney(db, instance.app, 1);
      const parent = await db.knex('receivables').where({ customer_id: customerId }).first<{ id: string; receivable_account_id: string }>();
      const receivableAccountId = Number(parent.receivable_account_id);
      const { associate } = await instance.app.associates.register.execute({ customerId, details: anAssociateDetails() });
      const locks: string[] = [];
      const noteLock = (query: { sql: string }) => {
        const locked = /FROM "?(receivable_accounts|receivables)"?.*\bFOR (NO KEY UPDATE|UPDATE|SHARE)\b/is.exec(query.sql);
        if (locked) locks.push(locked[1]);
      };
      instance.knex.on('query', noteLock);
      const outcomes = await instance.app.receivables.issueBatch.execute({
        items: [
          {
            customerId,
            receivableAccountId,
            amount: Money.parse('5.00'),
            currencyCode: 'ARS',
            receivableType: 'CREDIT_NOTE',
            parentReceivableId: Number(parent.id),
          },
          { customerId, receivableAccountId, amount: Money.parse('7.00'), currencyCode: 'ARS', receivableType: 'INVOICE', associateId: associate.id },
        ],
      });
      instance.knex.off('query', noteLock);
      expect(outcomes.map((o) => 'value' in o)).toEqual([true, true]);
      expect(locks[0]).toBe('receivable_accounts');
      expect(locks.lastIndexOf('receivable_accounts')).toBeLessThan(locks.indexOf('receivables'));
    } finally {
      await instance.knex.destroy();
    }
  });

  const issues: Record<string, (uow: UnitOfWork<TransactionScope>, child: IssueReceivableInput) => Promise<Receivable>> = {
    alone: (uow, child) => new IssueReceivable(uow, systemClock).execute(child),
    'in a batch': async (uow, child) => {
      const [outcome] = await new IssueReceivablesBatch(uow, systemClock).execute({ items: [child] });
      if (!('value' in outcome)) throw new Error(`the batch refused the child: ${String(outcome.error)}`);
      return outcome.value;
    },
  };

  for (const how of Object.keys(issues))
    itOnRealServer('the issue and the settlement hold two connections at once; PGlite has one')(
      `settles the child with its parent when the child, issued ${how}, is stored first, instead of leaving it PAID under a SETTLED parent`,
      async () => {
        const instance = instanceOn(db);
        try {
          const { customerId } = await seedMoney(db, instance.app, 1);
          const parent = await db.knex('receivables').where({ customer_id: customerId }).first<{ id: string; receivable_account_id: string }>();
          const receivableAccountId = Number(parent.receivable_account_id);
          let firstRun: Promise<SettlementRunResult> | undefined;
          const child = await instance.storage.begin(async (bound) => {
            const issued = await issues[how](bound.uow, {
              customerId,
              receivableAccountId,
              amount: Money.parse('10.00'),
              currencyCode: 'ARS',
              receivableType: 'CREDIT_NOTE',
              parentReceivableId: Number(parent.id),
            });
            // The run takes its own connection. Before the fix it took the account and waited for the parent's lock,
            // which this transaction holds, then settled the parent without the child it could not see.
            firstRun = instance.app.settlements.run.execute({ customerId });
            await Promise.race([firstRun, new Promise((resolve) => setTimeout(resolve, 1_500))]);
            return issued;
          });
          expect(child.status).toBe('PAID');
          await firstRun;
          await instance.app.settlements.run.execute({ customerId });
          const family = await db
            .knex('receivables')
            .whereIn('id', [Number(parent.id), child.id])
            .orderBy('id')
            .select('status', 'settlement_id');
          expect(family.map((r: { status: string }) => r.status)).toEqual(['SETTLED', 'SETTLED']);
          expect(family[1].settlement_id).toBe(family[0].settlement_id);
        } finally {
          await instance.knex.destroy();
        }
      },
    );
});
