import { A_CBU, aTransferDraft, everyPair, validTaxId } from '../testing';
import {
  internalDestinationId,
  outgoingDestination,
  Transfer,
  TRANSFER_OPERATIONS,
  TRANSFER_STATUSES,
  type TransferOperation,
  type TransferStatus,
} from '../src';

const T0 = new Date('2026-03-01T13:00:00.000Z');
const TODAY = '2026-03-01';
const TOMORROW = '2026-03-02';
const CREATOR = 7;
const APPROVER = 8;

const transferIn = (status: TransferStatus, scheduledDate: string | null = null) =>
  Transfer.rehydrate({
    ...aTransferDraft({ customerId: 1, sourceAccountId: 10, credentialId: CREATOR }, { status, scheduledDate }),
    id: 5,
    modificationDate: T0,
    version: 1,
  });

/** Each operation as its method is called, on a transfer whose date makes that operation the one that applies. */
const apply: Record<TransferOperation, [scheduledDate: string | null, (t: Transfer) => Transfer]> = {
  cancel: [null, (t) => t.cancel(T0)],
  approveForNow: [null, (t) => t.approve(APPROVER, TODAY, T0)],
  approveForLater: [TOMORROW, (t) => t.approve(APPROVER, TODAY, T0)],
  reject: [null, (t) => t.reject(APPROVER, T0)],
  start: [TODAY, (t) => t.start(TODAY, T0)],
  complete: [null, (t) => t.complete(T0)],
  fail: [null, (t) => t.fail('insufficient-balance', T0)],
};

describe('transfer state machine', () => {
  // What SPEC "Transfer" and CONTRACT "Transfers" allow; the test checks the table says exactly this.
  const matrix: ReadonlyArray<[TransferStatus, TransferOperation, TransferStatus | 'refused']> = TRANSFER_STATUSES.flatMap((from) =>
    TRANSFER_OPERATIONS.map((operation): [TransferStatus, TransferOperation, TransferStatus | 'refused'] => {
      const allowed: Partial<Record<TransferStatus, Partial<Record<TransferOperation, TransferStatus>>>> = {
        PENDING_APPROVAL: { cancel: 'CANCELLED', approveForNow: 'PENDING', approveForLater: 'SCHEDULED', reject: 'CANCELLED' },
        SCHEDULED: { cancel: 'CANCELLED', start: 'IN_PROGRESS', fail: 'FAILED' },
        PENDING: { start: 'IN_PROGRESS', fail: 'FAILED' },
        IN_PROGRESS: { complete: 'COMPLETED', fail: 'FAILED' },
      };
      return [from, operation, allowed[from]?.[operation] ?? 'refused'];
    }),
  );

  it.each(everyPair(TRANSFER_STATUSES, TRANSFER_OPERATIONS, matrix))('from %s, %s gives %s, as the table says', (from, operation, outcome) => {
    expect(Transfer.nextStatus(from, operation) ?? 'refused').toBe(outcome);
    const [scheduledDate, move] = apply[operation];
    const before = transferIn(from, scheduledDate);
    if (outcome === 'refused') {
      const code = operation === 'cancel' ? 'transfer-not-cancelable' : 'invalid-status-transition';
      expect(() => move(before)).toThrow(expect.objectContaining({ code }));
      return;
    }
    const after = move(before);
    expect(after.status).toBe(outcome);
    expect(after.toSnapshot().version).toBe(2);
  });

  it('leaves no status without a row of the table and no operation without a method', () => {
    expect([...TRANSFER_STATUSES].sort()).toEqual(['CANCELLED', 'COMPLETED', 'FAILED', 'IN_PROGRESS', 'PENDING', 'PENDING_APPROVAL', 'SCHEDULED']);
    expect(Object.keys(apply).sort()).toEqual([...TRANSFER_OPERATIONS].sort());
  });
});

describe('a new transfer', () => {
  const draft = (approvalControl: boolean, scheduledDate: string | null) =>
    Transfer.draft({ ...aTransferDraft({ customerId: 1, sourceAccountId: 10, credentialId: CREATOR }), scheduledDate }, { approvalControl, today: TODAY }, T0);

  it('is PENDING when undated, SCHEDULED when given a day, today included (SPEC)', () => {
    expect(draft(false, null).status).toBe('PENDING');
    expect(draft(false, TODAY).status).toBe('SCHEDULED');
    expect(draft(false, TOMORROW).status).toBe('SCHEDULED');
  });

  it('waits for approval under approval control, dated or not', () => {
    expect(draft(true, null).status).toBe('PENDING_APPROVAL');
    expect(draft(true, TOMORROW).status).toBe('PENDING_APPROVAL');
  });

  it('refuses a scheduledDate already past in Buenos Aires', () => {
    expect(() => draft(false, '2026-02-28')).toThrow(expect.objectContaining({ code: 'validation' }));
  });

  it('starts with no execution date, failure reason or approver', () => {
    expect(draft(false, null)).toMatchObject({ executionDate: null, failureReason: null, approvedByCredentialId: null, processing: { attempts: 0 } });
  });
});

describe('approving and processing', () => {
  it('is refused to the credential that created the transfer (four eyes)', () => {
    expect(() => transferIn('PENDING_APPROVAL').approve(CREATOR, TODAY, T0)).toThrow(expect.objectContaining({ code: 'forbidden' }));
  });

  it('gives SCHEDULED while the day is ahead and PENDING once it has come, recording the approver', () => {
    const later = transferIn('PENDING_APPROVAL', TOMORROW).approve(APPROVER, TODAY, T0);
    expect(later.toSnapshot()).toMatchObject({ status: 'SCHEDULED', approvedByCredentialId: APPROVER });
    expect(transferIn('PENDING_APPROVAL', TOMORROW).approve(APPROVER, TOMORROW, T0).status).toBe('PENDING');
  });

  it('records who rejected it', () => {
    expect(transferIn('PENDING_APPROVAL').reject(APPROVER, T0).toSnapshot()).toMatchObject({ status: 'CANCELLED', rejectedByCredentialId: APPROVER });
  });

  it('does not start a SCHEDULED transfer before its day', () => {
    expect(() => transferIn('SCHEDULED', TOMORROW).start(TODAY, T0)).toThrow(expect.objectContaining({ code: 'invalid-status-transition' }));
  });

  it('completes with its execution date and a transfer.completed event', () => {
    const done = transferIn('IN_PROGRESS').complete(T0);
    expect(done.toSnapshot().executionDate).toEqual(T0);
    expect(done.events).toEqual([
      expect.objectContaining({ type: 'transfer.completed', data: { transfer: expect.objectContaining({ id: 5, status: 'COMPLETED' }) } }),
    ]);
  });

  it('fails with its reason and a transfer.failed event', () => {
    const failed = transferIn('IN_PROGRESS').fail('destination-rejected', T0);
    expect(failed.toSnapshot().failureReason).toBe('destination-rejected');
    expect(failed.events.map((e) => e.type)).toEqual(['transfer.failed']);
  });

  it('records no event for the moves integrators make themselves', () => {
    expect(transferIn('PENDING_APPROVAL').approve(APPROVER, TODAY, T0).events).toEqual([]);
    expect(transferIn('SCHEDULED').cancel(T0).events).toEqual([]);
  });
});

describe('transfer destinations', () => {
  const taxId = validTaxId('30', 71234568);
  const counterParty = { name: ' Proveedor SA ', taxId: `${taxId.slice(0, 2)}-${taxId.slice(2, 10)}-${taxId.slice(10)}` };

  it('takes a CBU/CVU with both check digits right, or an alias, with the counterparty canonicalised', () => {
    expect(outgoingDestination({ cbuCvu: A_CBU, counterParty })).toEqual({
      cbuCvu: A_CBU,
      alias: null,
      accountId: null,
      counterParty: { name: 'Proveedor SA', taxId },
    });
    expect(outgoingDestination({ alias: 'proveedor.pago-1', counterParty }).alias).toBe('proveedor.pago-1');
  });

  it.each([
    ['a wrong first check digit', { cbuCvu: A_CBU.slice(0, 7) + String((Number(A_CBU[7]) + 1) % 10) + A_CBU.slice(8), counterParty }, 'destination.cbuCvu'],
    ['a wrong second check digit', { cbuCvu: A_CBU.slice(0, 21) + String((Number(A_CBU[21]) + 1) % 10), counterParty }, 'destination.cbuCvu'],
    ['an alias too short', { alias: 'abc12', counterParty }, 'destination.alias'],
    ['an alias with a space', { alias: 'pago proveedor', counterParty }, 'destination.alias'],
    ['neither CBU/CVU nor alias', { counterParty }, 'destination'],
    ['no counterParty', { cbuCvu: A_CBU }, 'destination.counterParty'],
    ['an accountId', { cbuCvu: A_CBU, accountId: 3, counterParty }, 'destination.accountId'],
  ])('refuses an outgoing destination with %s', (_case, input, name) => {
    expect(() => outgoingDestination(input)).toThrow(expect.objectContaining({ code: 'validation', invalidParams: [expect.objectContaining({ name })] }));
  });

  it('takes only an accountId for an internal transfer', () => {
    expect(internalDestinationId({ accountId: 3 })).toBe(3);
    expect(() => internalDestinationId({})).toThrow(expect.objectContaining({ code: 'validation' }));
    expect(() => internalDestinationId({ accountId: 3, cbuCvu: A_CBU })).toThrow(expect.objectContaining({ code: 'validation' }));
  });
});
