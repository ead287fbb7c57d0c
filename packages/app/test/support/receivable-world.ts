import fc from 'fast-check';
import { foldListCounts } from '@rcs/adapters-postgres';
import type { TestDatabase } from '@rcs/adapters-postgres/testing';
import { isPositive, Money, type Application, type ReceivableStatus, type ReceivableType } from '@rcs/domain';
import { collectFive } from './list-count-checks';

/**
 * The receivables' count suites' world: a customer with three ACTIVE accounts, and the writes a random mix draws
 * from (issues of both signs, status moves, edits, collections, settlements, expiry, account changes, deletions in
 * SQL, folds), each run through the application as a request would.
 */
export interface World {
  readonly customerId: number;
  readonly accounts: ReadonlyArray<{ id: number; associateId?: number }>;
  readonly receivables: number[];
  /** Before the customer and anything of it was created. */
  readonly started: Date;
}

export type Operation =
  | { kind: 'issue'; account: number; withAssociate: boolean; overdue: boolean; type: ReceivableType; cents: number; parent: number }
  | { kind: 'status'; receivable: number; status: ReceivableStatus }
  /** `due`: a new due date (null: none), moving the receivable between the due days counted; absent: kept. */
  | { kind: 'edit'; receivable: number; cents: number; due?: string | null }
  | { kind: 'collect'; account: number }
  | { kind: 'settle' }
  | { kind: 'expire' }
  | { kind: 'disable-account'; account: number }
  | { kind: 'activate-account'; account: number }
  | { kind: 'delete'; receivable: number }
  | { kind: 'fold' };

/** The due dates the writes give: an overdue one (the expiry takes its receivables) and one far ahead. */
export const DUE_DAYS = ['2020-01-01', '2031-06-30'] as const;

export const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('issue' as const),
      account: fc.nat(2),
      withAssociate: fc.boolean(),
      overdue: fc.boolean(),
      // Both signs: invoices and debts add to an account's pending amount, the rest (children of one) subtract.
      type: fc.constantFrom<ReceivableType>('INVOICE', 'DEBT', 'CREDIT_NOTE', 'RETENTION', 'ADJUSTMENT'),
      cents: fc.integer({ min: 1, max: 100_000 }),
      parent: fc.nat(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('status' as const),
      receivable: fc.nat(),
      status: fc.constantFrom<ReceivableStatus>('PAID', 'PENDING', 'DISABLED'),
    }),
  },
  fc.record(
    {
      kind: fc.constant('edit' as const),
      receivable: fc.nat(),
      cents: fc.integer({ min: 1, max: 100_000 }),
      due: fc.constantFrom<string | null>(null, DUE_DAYS[0], DUE_DAYS[1]),
    },
    { requiredKeys: ['kind', 'receivable', 'cents'] },
  ),
  fc.record({ kind: fc.constant('collect' as const), account: fc.nat(2) }),
  fc.record({ kind: fc.constant('settle' as const) }),
  fc.record({ kind: fc.constant('expire' as const) }),
  fc.record({ kind: fc.constant('disable-account' as const), account: fc.nat(2) }),
  fc.record({ kind: fc.constant('activate-account' as const), account: fc.nat(2) }),
  fc.record({ kind: fc.constant('delete' as const), receivable: fc.nat() }),
  fc.record({ kind: fc.constant('fold' as const) }),
);

/** The world's builder and its writes, on `db`. */
export function receivableWorld(db: () => TestDatabase) {
  const now = () => new Date();
  const party = (table: 'clients' | 'associates', customerId: number, n: number) => {
    const taxId = String(20_000_000_000 + n).padStart(11, '0');
    const common = { customer_id: customerId, tax_id: taxId, creation_date: now(), modification_date: now(), version: 1 };
    const row =
      table === 'clients'
        ? { ...common, business_name: `Payer ${n}`, document_type: 'CUIT' }
        : { ...common, type: 'COLLECTOR', name: 'A', last_name: `B${n}`, document_number: String(n), email: 'a@b.c', phone: '+541100000000', status: 'ACTIVE' };
    return db()
      .knex(table)
      .insert(row)
      .returning('id')
      .then(([inserted]) => Number(inserted.id));
  };

  /** A customer with three ACTIVE accounts: client only, client and associate, and a second client's with no associate yet. */
  async function world(app: Application): Promise<World> {
    const started = now();
    const { customer } = await app.customers.create.execute({ name: `counts-${process.pid}-${Date.now()}-${Math.random()}` });
    const customerId = customer.id;
    const [c1, c2, a1] = [await party('clients', customerId, 1), await party('clients', customerId, 2), await party('associates', customerId, 3)];
    const owners = [{ clientId: c1 }, { clientId: c1, associateId: a1 }, { clientId: c2 }];
    const accounts = [];
    for (const owner of owners) {
      const account = await app.receivableAccounts.open.execute({ customerId, ...owner });
      await db()
        .knex('receivable_accounts')
        .where({ id: account.id })
        .update({ status: 'ACTIVE', cvu: `00000449${String(account.id).padStart(14, '0')}`, next_attempt_at: null });
      accounts.push({ id: account.id, ...(owner.associateId ? { associateId: owner.associateId } : {}) });
    }
    return { customerId, accounts, receivables: [], started };
  }

  /** Runs one operation; refusals (a status move the table forbids, a race lost) are outcomes like any other. */
  async function apply(app: Application, w: World, op: Operation): Promise<void> {
    const { customerId } = w;
    const pick = (n: number) => w.receivables[n % w.receivables.length];
    switch (op.kind) {
      case 'issue': {
        // A negative type hangs from a receivable of the account it is issued on (refused past the parent's amount).
        const parent =
          isPositive(op.type) || w.receivables.length === 0 ? undefined : await app.receivables.get.execute({ customerId, receivableId: pick(op.parent) });
        const account = parent ? w.accounts.find((a) => a.id === parent.toSnapshot().receivableAccountId)! : w.accounts[op.account];
        const receivable = await app.receivables.issue.execute({
          customerId,
          receivableAccountId: account.id,
          amount: Money.ofMinor(BigInt(op.cents)),
          currencyCode: 'ARS',
          receivableType: op.type,
          ...(parent ? { parentReceivableId: parent.id } : {}),
          ...(op.withAssociate && account.associateId ? { associateId: account.associateId } : {}),
          ...(op.overdue ? { dueDate: DUE_DAYS[0] } : {}),
        });
        w.receivables.push(receivable.id);
        return;
      }
      case 'edit':
        if (w.receivables.length > 0)
          await app.receivables.edit.execute({
            customerId,
            receivableId: pick(op.receivable),
            edits: { amountMinor: BigInt(op.cents), ...(op.due === undefined ? {} : { dueDate: op.due }) },
          });
        return;
      case 'status':
        if (w.receivables.length > 0) await app.receivables.changeStatus.execute({ customerId, receivableId: pick(op.receivable), status: op.status });
        return;
      case 'collect':
        await collectFive(app, customerId, w.accounts[op.account].id);
        return;
      case 'settle':
        await app.settlements.run.execute({ customerId });
        return;
      case 'expire':
        await app.receivables.expire.execute({ customerId });
        return;
      case 'disable-account':
        await app.receivableAccounts.disable.execute({ customerId, accountId: w.accounts[op.account].id });
        return;
      case 'activate-account':
        await app.receivableAccounts.activate.execute({ customerId, accountId: w.accounts[op.account].id });
        return;
      case 'delete':
        // No operation deletes a receivable; a purge in SQL would, and the counts follow it too.
        if (w.receivables.length > 0)
          await db()
            .knex('receivables')
            .where({ id: pick(op.receivable) })
            .whereNotExists(db().knex('receivables as child').whereRaw('child.parent_receivable_id = receivables.id'))
            .delete();
        return;
      case 'fold':
        // Chunks of a few groups, so a fold meets the writers racing it on many of its chunks.
        await foldListCounts(db().knex, { chunk: 7 });
        return;
    }
  }

  return { world, apply };
}
