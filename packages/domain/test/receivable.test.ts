import { FINAL_STATUSES, Receivable, RECEIVABLE_STATUSES, SETTLEMENT_RULE, type ReceivableOperation, type ReceivableStatus } from '../src';
import { aReceivableDraft } from '../testing';

const T0 = new Date('2026-02-01T00:00:00Z');
const T1 = new Date('2026-02-02T00:00:00Z');

function receivableIn(status: ReceivableStatus): Receivable {
  return Receivable.rehydrate({
    ...aReceivableDraft({ customerId: 1, accountId: 2, clientId: 3 }, { status, creationDate: T0 }),
    id: 7,
    modificationDate: T0,
    version: 1,
  });
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
  /** What each move does from each status that is not final: the next status and its event, or refused. */
  const expected: Readonly<Record<string, readonly [string, string | null]>> = {
    'PENDING markPaid': ['PAID', 'receivable.paid'],
    'PENDING undoPayment': [refused, null],
    'PENDING expire': ['EXPIRED', 'receivable.expired'],
    'PENDING cancel': ['DISABLED', 'receivable.disabled'],
    'PENDING settle': [refused, null],
    'PENDING edit': ['PENDING', null],
    'PAID markPaid': [refused, null],
    'PAID undoPayment': ['PENDING', 'receivable.reopened'],
    'PAID expire': [refused, null],
    'PAID cancel': ['DISABLED', 'receivable.disabled'],
    'PAID settle': ['SETTLED', 'receivable.settled'],
    'PAID edit': ['PAID', null],
    'EXPIRED markPaid': ['PAID', 'receivable.paid'],
    'EXPIRED undoPayment': [refused, null],
    'EXPIRED expire': [refused, null],
    'EXPIRED cancel': ['DISABLED', 'receivable.disabled'],
    'EXPIRED settle': [refused, null],
    'EXPIRED edit': ['EXPIRED', null],
  };
  // SPEC: SETTLED and DISABLED are final; CONTRACT: any change to them is updating-receivable-final-status.
  const outcome = (from: ReceivableStatus, operation: ReceivableOperation) =>
    ['SETTLED', 'DISABLED'].includes(from) ? [final, null] : expected[`${from} ${operation}`];
  const pairs = RECEIVABLE_STATUSES.flatMap((from) => (Object.keys(apply) as ReceivableOperation[]).map((operation) => [from, operation] as const));

  it.each(pairs)('a %s receivable asked to %s ends as the table says', (from, operation) => {
    const [result, event] = outcome(from, operation);
    const before = receivableIn(from);
    if (result === refused || result === final) {
      expect(() => apply[operation](before)).toThrow(expect.objectContaining({ code: result }));
      return;
    }
    const after = apply[operation](before);
    expect(after.status).toBe(result);
    expect(after.events.map((e) => e.type)).toEqual(event ? [event] : []);
    expect(after.toSnapshot().version).toBe(2);
  });

  it('has an expected outcome for every (status, operation) pair, and final statuses are exactly SETTLED and DISABLED', () => {
    expect(pairs.filter(([from, operation]) => outcome(from, operation) === undefined)).toEqual([]);
    expect([...FINAL_STATUSES].sort()).toEqual(['DISABLED', 'SETTLED']);
  });

  it('changes the amount only while PENDING', () => {
    expect(receivableIn('PENDING').edit({ amountMinor: 5n }, T1).toSnapshot().amountMinor).toBe(5n);
    expect(() => receivableIn('PAID').edit({ amountMinor: 5n }, T1)).toThrow(expect.objectContaining({ code: 'invalid-status-transition' }));
    expect(receivableIn('PAID').edit({ amountMinor: 10_000n }, T1).status).toBe('PAID');
  });

  it('holds a change of its dates to their order, and leaves a row stored before the rule editable, dates sent back unchanged', () => {
    const inverted = Receivable.rehydrate({ ...receivableIn('PENDING').toSnapshot(), issueDate: '2026-05-02', dueDate: '2026-05-01' });
    const asRead = { issueDate: '2026-05-02', dueDate: '2026-05-01' };
    expect(inverted.edit({ ...asRead, description: 'b' }, T1).toSnapshot()).toMatchObject({ ...asRead, description: 'b' });
    expect(() => inverted.edit({ issueDate: '2026-05-03' }, T1)).toThrow(expect.objectContaining({ code: 'validation' }));
    expect(inverted.edit({ dueDate: '2026-05-02' }, T1).toSnapshot().dueDate).toBe('2026-05-02');
    expect(inverted.edit({ issueDate: null }, T1).toSnapshot().issueDate).toBeNull();
  });

  it('holds changed voucher data to its required members, and leaves a row stored before the rule editable, data sent back unchanged', () => {
    const stored = { authCode: '1', version: ' ', pointOfSale: '1', rawDocumentType: 'A', authCodeType: 'CAE' };
    const before = Receivable.rehydrate({ ...receivableIn('PENDING').toSnapshot(), invoiceData: stored });
    const reordered = { version: ' ', pointOfSale: '1', rawDocumentType: 'A', authCodeType: 'CAE', authCode: '1' };
    expect(before.edit({ invoiceData: reordered, description: 'b' }, T1).toSnapshot().description).toBe('b');
    expect(() => before.edit({ invoiceData: { ...stored, authCode: '2' } }, T1)).toThrow(expect.objectContaining({ code: 'missing-invoice-fields' }));
    expect(before.edit({ invoiceData: { ...stored, version: '2' } }, T1).toSnapshot().invoiceData).toMatchObject({ version: '2' });
  });

  it('drafts a negative type only with a parent named, and a positive one only without', () => {
    const on = { customerId: 1, accountId: 2, clientId: 3 };
    expect(() => aReceivableDraft(on, { receivableType: 'RETENTION', parentReceivableId: null })).toThrow(
      expect.objectContaining({ code: 'missing-parent-receivable' }),
    );
    expect(() => aReceivableDraft(on, { receivableType: 'INVOICE', parentReceivableId: 5 })).toThrow(expect.objectContaining({ code: 'validation' }));
    expect(aReceivableDraft(on, { receivableType: 'RETENTION', parentReceivableId: 5 }).parentReceivableId).toBe(5);
  });

  it('settles, in the settlement cycle, exactly the statuses the table lets settle, into the status settling leads to', () => {
    const settling = RECEIVABLE_STATUSES.filter((status) => Receivable.nextStatus(status, 'settle') !== undefined);
    expect(SETTLEMENT_RULE.from).toEqual(settling);
    for (const status of settling) expect(Receivable.nextStatus(status, 'settle')).toBe(SETTLEMENT_RULE.to);
    expect(SETTLEMENT_RULE).toEqual({ from: ['PAID'], to: 'SETTLED' });
  });
});
