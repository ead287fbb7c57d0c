import fc from 'fast-check';
import { Receivable, RECEIVABLE_TYPES, isPositive, type ReceivableStatus, type ReceivableType } from '../src';
import { aReceivableDraft } from '../testing';

const NEGATIVE = RECEIVABLE_TYPES.filter((type) => !isPositive(type));
const T0 = new Date('2026-03-01T10:00:00.000Z');
const ACCOUNT = 2;
const PARENT_ID = 1;
const amount = fc.bigInt({ min: 1n, max: 999_999_999_999_999n });

function receivable(id: number, type: ReceivableType, amountMinor: bigint, status: ReceivableStatus = 'PENDING'): Receivable {
  const parentReceivableId = isPositive(type) ? null : PARENT_ID;
  const draft = aReceivableDraft(
    { customerId: 1, accountId: ACCOUNT, clientId: 3 },
    { receivableType: type, amountMinor, parentReceivableId, status, creationDate: T0 },
  );
  return Receivable.rehydrate({ ...draft, id, modificationDate: T0, version: 1 });
}

const childrenOf = (amounts: readonly bigint[], types: readonly ReceivableType[]) =>
  amounts.map((minor, i) => receivable(PARENT_ID + 1 + i, types[i % types.length], minor));
const sum = (amounts: readonly bigint[]) => amounts.reduce((total, minor) => total + minor, 0n);
const refusal = (act: () => unknown): string | undefined => {
  try {
    act();
    return undefined;
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('parent and children amounts (property)', () => {
  it('admits a child exactly when the active children stay within the parent amount', () => {
    fc.assert(
      fc.property(
        amount,
        fc.array(fc.record({ minor: amount, type: fc.constantFrom(...NEGATIVE) }), { maxLength: 8 }),
        fc.constantFrom<ReceivableStatus>('PENDING', 'PAID', 'EXPIRED'),
        (parentMinor, asked, status) => {
          const parent = receivable(PARENT_ID, 'INVOICE', parentMinor, status);
          const active: Receivable[] = [];
          for (const child of asked) {
            const fits = sum(active.map((c) => c.amountMinor)) + child.minor <= parentMinor;
            if (fits) {
              expect(parent.admitChild({ receivableAccountId: ACCOUNT, amountMinor: child.minor }, active)).toBe(status === 'PAID' ? 'PAID' : 'PENDING');
              active.push(receivable(PARENT_ID + 1 + active.length, child.type, child.minor));
            } else {
              expect(refusal(() => parent.admitChild({ receivableAccountId: ACCOUNT, amountMinor: child.minor }, active))).toBe(
                'child-receivables-exceed-parent-amount',
              );
            }
          }
          expect(sum(active.map((c) => c.amountMinor)) <= parentMinor).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never lets a parent amount drop below its active children', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 1n, max: 10_000_000n }), { maxLength: 6 }), fc.bigInt({ min: 1n, max: 60_000_000n }), (amounts, newMinor) => {
        const edited = receivable(PARENT_ID, 'INVOICE', sum(amounts) + 1n).edit({ amountMinor: newMinor }, T0);
        const outcome = refusal(() => edited.assertChildrenFit(childrenOf(amounts, NEGATIVE)));
        expect(outcome).toBe(newMinor >= sum(amounts) ? undefined : 'child-receivables-exceed-parent-amount');
      }),
      { numRuns: 200 },
    );
  });

  it('never lets a child grow past what its parent leaves it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 1n, max: 10_000_000n }), { minLength: 1, maxLength: 6 }),
        fc.bigInt({ min: 1n, max: 60_000_000n }),
        fc.bigInt({ min: 0n, max: 10_000_000n }),
        (amounts, newMinor, room) => {
          const parent = receivable(PARENT_ID, 'INVOICE', sum(amounts) + room);
          const [first, ...others] = childrenOf(amounts, NEGATIVE);
          const outcome = refusal(() => parent.assertChildrenFit([first.edit({ amountMinor: newMinor }, T0), ...others]));
          expect(outcome).toBe(newMinor + sum(amounts.slice(1)) <= sum(amounts) + room ? undefined : 'child-receivables-exceed-parent-amount');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('hangs children only from a positive receivable on their account that can still change', () => {
    const child = { receivableAccountId: ACCOUNT, amountMinor: 1n };
    expect(refusal(() => receivable(PARENT_ID, 'INVOICE', 100n).admitChild({ ...child, receivableAccountId: ACCOUNT + 1 }, []))).toBe(
      'parent-receivable-different-account',
    );
    expect(refusal(() => receivable(PARENT_ID, 'CREDIT_NOTE', 100n).admitChild(child, []))).toBe('parent-receivable-invalid-type');
    for (const status of ['SETTLED', 'DISABLED'] as const) {
      expect(refusal(() => receivable(PARENT_ID, 'INVOICE', 100n, status).admitChild(child, []))).toBe('parent-receivable-not-modifiable');
    }
  });
});
