import { Receivable, type ReceivableOperation, type ReceivableStatus } from '../src';
import { aReceivableDraft } from '../testing';

const T0 = new Date('2026-02-01T00:00:00Z');
const T1 = new Date('2026-02-02T00:00:00Z');

function receivableIn(status: ReceivableStatus): Receivable {
  return Receivable.rehydrate({ ...aReceivableDraft({ customerId: 1, accountId: 2, clientId: 3 }, { status, creationDate: T0 }), id: 7, modificationDate: T0, version: 1 });
}

const apply: Record<ReceivableOperation, (r: Receivable) => Receivable> = {
  markPaid: (r) => r.markPaid(T1),
  undoPayment: (r) => r.undoPayment(T1),
  expire: (r) => r.expire(T1),
  cancel: (r) => r.cancel(T1),
  settle: (r) => r.settle(T1),
  edit: (r) => r.edit({ description: 'edited' }, T1),
};

describe('receivable state machine', () => {
  const refused = 'invalid-status-transition';
  const final = 'updating-receivable-final-status';
  const matrix: ReadonlyArray<[ReceivableStatus, ReceivableOperation, string, string | null]> = [
    ['PENDING', 'markPaid', 'PAID', 'receivable.paid'],
    ['PENDING', 'undoPayment', refused, null],
    ['PENDING', 'expire', 'EXPIRED', 'receivable.expired'],
    ['PENDING', 'cancel', 'DISABLED', 'receivable.disabled'],
    ['PENDING', 'settle', refused, null],
    ['PENDING', 'edit', 'PENDING', null],
    ['PAID', 'markPaid', refused, null],
    ['PAID', 'undoPayment', 'PENDING', null],
    ['PAID', 'expire', refused, null],
    ['PAID', 'cancel', 'DISABLED', 'receivable.disabled'],
    ['PAID', 'settle', 'SETTLED', 'receivable.settled'],
    ['PAID', 'edit', 'PAID', null],
    ['EXPIRED', 'markPaid', 'PAID', 'receivable.paid'],
    ['EXPIRED', 'undoPayment', refused, null],
    ['EXPIRED', 'expire', refused, null],
    ['EXPIRED', 'cancel', 'DISABLED', 'receivable.disabled'],
    ['EXPIRED', 'settle', refused, null],
    ['EXPIRED', 'edit', 'EXPIRED', null],
    ...(['SETTLED', 'DISABLED'] as const).flatMap((from) =>
      (['markPaid', 'undoPayment', 'expire', 'cancel', 'settle'] as const).map((op): [ReceivableStatus, ReceivableOperation, string, null] => [from, op, refused, null]),
    ),
    ['SETTLED', 'edit', final, null],
    ['DISABLED', 'edit', final, null],
  ];

  it.each(matrix)('from %s, %s gives %s (event %s)', (from, operation, outcome, event) => {
    const before = receivableIn(from);
    if (outcome === refused || outcome === final) {
      expect(() => apply[operation](before)).toThrow(expect.objectContaining({ code: outcome }));
      return;
    }
    const after = apply[operation](before);
    expect(after.status).toBe(outcome);
    expect(after.events.map((e) => e.type)).toEqual(event ? [event] : []);
    expect(after.toSnapshot().version).toBe(2);
  });

  it('covers every (status, operation) pair', () => {
    expect(new Set(matrix.map(([s, o]) => `${s}:${o}`)).size).toBe(5 * Object.keys(apply).length);
  });

  it('changes the amount only while PENDING', () => {
    expect(receivableIn('PENDING').edit({ amountMinor: 5n }, T1).toSnapshot().amountMinor).toBe(5n);
    expect(() => receivableIn('PAID').edit({ amountMinor: 5n }, T1)).toThrow(expect.objectContaining({ code: 'invalid-status-transition' }));
    expect(receivableIn('PAID').edit({ amountMinor: 10_000n }, T1).status).toBe('PAID');
  });
});
