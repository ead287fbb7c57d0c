import fc from 'fast-check';
import { Client, DEFAULT_CUSTOMER_SETTINGS, Money, formatMinor } from '../src';
import { aClientDetails, inMemoryApplication } from '../testing';

const NEGATIVE = ['CREDIT_NOTE', 'MISSING_PRODUCT', 'RETURN_PRODUCT', 'BROKEN_PRODUCT', 'ADJUSTMENT', 'RETENTION'] as const;

async function world() {
  const w = inMemoryApplication();
  const { customer } = await w.uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'P', creationDate: w.clock.now() }));
  const { client } = await w.uow.run((tx) => tx.clients.insertIfAbsent(Client.register(customer.id, aClientDetails(), w.clock.now())));
  const account = await w.app.receivableAccounts.open.execute({ customerId: customer.id, clientId: client.id });
  const issue = (minor: bigint, type: string, parentReceivableId?: number) =>
    w.app.receivables.issue.execute({
      customerId: customer.id,
      receivableAccountId: account.id,
      amount: Money.parse(formatMinor(minor)),
      currencyCode: 'ARS',
      receivableType: type as never,
      parentReceivableId,
    });
  return { ...w, customerId: customer.id, issue };
}

describe('parent and children amounts (property)', () => {
  it('accepts a child exactly when the active children stay within the parent amount', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 1n, max: 999_999_999_999_999n }),
        fc.array(fc.record({ minor: fc.bigInt({ min: 1n, max: 999_999_999_999_999n }), type: fc.constantFrom(...NEGATIVE), cancel: fc.boolean() }), { maxLength: 8 }),
        async (parentMinor, children) => {
          const w = await world();
          const parent = await w.issue(parentMinor, 'INVOICE');
          let active = 0n;
          for (const child of children) {
            const fits = active + child.minor <= parentMinor;
            const outcome = await w.issue(child.minor, child.type, parent.id).then(
              (r) => r,
              (e) => e,
            );
            if (fits) {
              expect(outcome.status).toBe('PENDING');
              if (child.cancel) await w.app.receivables.changeStatus.execute({ customerId: w.customerId, receivableId: outcome.id, status: 'DISABLED' });
              else active += child.minor;
            } else {
              expect(outcome.code).toBe('child-receivables-exceed-parent-amount');
            }
          }
          const stored = [...w.store.committed.receivables.values()].filter((r) => r.parentReceivableId === parent.id && r.status !== 'DISABLED');
          expect(stored.reduce((sum, r) => sum + r.amountMinor, 0n)).toBe(active);
          expect(active <= parentMinor).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('never lets a parent amount drop below its active children', async () => {
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 2n, max: 10_000_000n }), fc.bigInt({ min: 1n, max: 10_000_000n }), fc.bigInt({ min: 1n, max: 10_000_000n }), async (parentMinor, childMinor, newMinor) => {
        fc.pre(childMinor <= parentMinor);
        const w = await world();
        const parent = await w.issue(parentMinor, 'INVOICE');
        await w.issue(childMinor, 'RETENTION', parent.id);
        const edited = await w.app.receivables.edit.execute({ customerId: w.customerId, receivableId: parent.id, edits: { amountMinor: newMinor } }).then(
          (r) => r,
          (e) => e,
        );
        if (newMinor >= childMinor) expect(edited.toSnapshot().amountMinor).toBe(newMinor);
        else expect(edited.code).toBe('child-receivables-exceed-parent-amount');
      }),
      { numRuns: 60 },
    );
  });
});
