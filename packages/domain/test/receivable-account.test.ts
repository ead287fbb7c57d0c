import { ReceivableAccount, receivableAccountView, type ReceivableAccountOperation, type ReceivableAccountStatus } from '../src';
import { everyPair } from '../testing';

const T0 = new Date('2026-02-01T00:00:00Z');
const T1 = new Date('2026-02-01T00:01:00Z');
const CVU = '0000044100000000000014';

function accountIn(status: ReceivableAccountStatus, withCvu = true): ReceivableAccount {
  const provisioning = ReceivableAccount.open({ id: 9, customerId: 1, owner: { clientId: 3, associateId: null }, currencyCode: 'ARS' }, T0);
  if (status === 'PROVISIONING') return provisioning;
  const active = withCvu ? provisioning.assignCvu(CVU, 'cta.0000009', T0) : provisioning;
  return status === 'ACTIVE' ? active : active.disable(T0);
}

const apply: Record<ReceivableAccountOperation, (a: ReceivableAccount) => ReceivableAccount> = {
  assignCvu: (a) => a.assignCvu(CVU, 'cta.0000009', T1),
  retryProvisioning: (a) => a.retryProvisioning(T1, 'HTTP_503', T1),
  failProvisioning: (a) => a.giveUpProvisioning('TIMEOUT', T1),
  update: (a) => a.update({ associateId: 4 }, T1),
  replaceAlias: (a) => a.replaceAlias('ra.0000009.x1y2', T1),
  disable: (a) => a.disable(T1),
  activate: (a) => a.activate(T1),
  // The same request, on an account that never got its CVU.
  resumeProvisioning: (a) => ReceivableAccount.rehydrate({ ...a.toSnapshot(), cvu: null, alias: null }).activate(T1),
};

/** Every status: `satisfies` makes the compiler name the one left out when the type grows. */
const STATUSES = Object.keys({ PROVISIONING: true, ACTIVE: true, DISABLED: true } satisfies Record<ReceivableAccountStatus, true>) as ReceivableAccountStatus[];
const OPERATIONS = Object.keys(apply) as ReceivableAccountOperation[];

describe('receivable account state machine', () => {
  const matrix: ReadonlyArray<[ReceivableAccountStatus, ReceivableAccountOperation, ReceivableAccountStatus | 'refused', string | null]> = [
    ['PROVISIONING', 'assignCvu', 'ACTIVE', 'receivable-account.activated'],
    ['PROVISIONING', 'retryProvisioning', 'PROVISIONING', null],
    ['PROVISIONING', 'failProvisioning', 'DISABLED', 'receivable-account.disabled'],
    ['PROVISIONING', 'update', 'PROVISIONING', null],
    ['PROVISIONING', 'replaceAlias', 'refused', null],
    ['PROVISIONING', 'disable', 'DISABLED', 'receivable-account.disabled'],
    ['PROVISIONING', 'activate', 'refused', null],
    ['PROVISIONING', 'resumeProvisioning', 'refused', null],
    ['ACTIVE', 'assignCvu', 'refused', null],
    ['ACTIVE', 'retryProvisioning', 'refused', null],
    ['ACTIVE', 'failProvisioning', 'refused', null],
    ['ACTIVE', 'update', 'ACTIVE', null],
    ['ACTIVE', 'replaceAlias', 'ACTIVE', null],
    ['ACTIVE', 'disable', 'DISABLED', 'receivable-account.disabled'],
    ['ACTIVE', 'activate', 'refused', null],
    ['ACTIVE', 'resumeProvisioning', 'refused', null],
    ['DISABLED', 'assignCvu', 'refused', null],
    ['DISABLED', 'retryProvisioning', 'refused', null],
    ['DISABLED', 'failProvisioning', 'refused', null],
    ['DISABLED', 'update', 'refused', null],
    ['DISABLED', 'replaceAlias', 'DISABLED', null],
    ['DISABLED', 'disable', 'refused', null],
    ['DISABLED', 'activate', 'ACTIVE', 'receivable-account.activated'],
    ['DISABLED', 'resumeProvisioning', 'PROVISIONING', null],
  ];

  it.each(everyPair(STATUSES, OPERATIONS, matrix))('from %s, %s gives %s (event %s), as the table says', (from, operation, outcome, event) => {
    expect(ReceivableAccount.nextStatus(from, operation) ?? 'refused').toBe(outcome);
    const before = accountIn(from);
    if (outcome === 'refused') {
      expect(() => apply[operation](before)).toThrow(expect.objectContaining({ code: 'invalid-status-transition' }));
      return;
    }
    const after = apply[operation](before);
    expect(after.status).toBe(outcome);
    expect(after.eventsWith(0n).map((e) => e.type)).toEqual(event ? [event] : []);
    expect(after.toSnapshot().version).toBe(before.toSnapshot().version + 1);
  });

  it('states each (status, operation) pair once', () => {
    expect(matrix).toHaveLength(STATUSES.length * OPERATIONS.length);
  });

  it('sends a DISABLED account that never got a CVU back to PROVISIONING with a fresh retry budget', () => {
    const failed = accountIn('PROVISIONING').retryProvisioning(T0, 'HTTP_503', T0).giveUpProvisioning('HTTP_503', T0);
    const again = failed.activate(T1);
    expect(again.status).toBe('PROVISIONING');
    expect(again.toSnapshot().provisioning).toEqual({ attempts: 0, nextAttemptAt: T1, lastError: null });
    expect(again.eventsWith(0n)).toEqual([]);
  });

  it("says why a DISABLED account is disabled: the provider's refusal with its words, exhausted retries, or the customer", () => {
    const provisioning = accountIn('PROVISIONING');
    expect(provisioning.rejectProvisioning('blocked holder', T1).toSnapshot().disabled).toEqual({ reason: 'PROVIDER_REJECTED', message: 'blocked holder' });
    expect(provisioning.giveUpProvisioning('TIMEOUT', T1).toSnapshot().disabled).toEqual({ reason: 'PROVISIONING_RETRIES_EXHAUSTED', message: null });
    expect(accountIn('ACTIVE').disable(T1).toSnapshot().disabled).toEqual({ reason: 'DISABLED_BY_CUSTOMER', message: null });
  });

  it('has no disabled reason unless DISABLED, in its view and events too', () => {
    const disabled = accountIn('ACTIVE').disable(T1);
    expect(disabled.eventsWith(0n)[0].data).toEqual({
      receivableAccount: expect.objectContaining({ disabledReason: 'DISABLED_BY_CUSTOMER', disabledMessage: null }),
    });
    const active = disabled.activate(T1);
    expect(active.toSnapshot().disabled).toBeNull();
    expect(receivableAccountView(active.toSnapshot(), 0n)).toMatchObject({ disabledReason: null, disabledMessage: null });
    expect(receivableAccountView(accountIn('PROVISIONING').toSnapshot(), 0n)).toMatchObject({ disabledReason: null, disabledMessage: null });
  });

  it('lets an associate be replaced before the CVU is active, never after', () => {
    const bound = accountIn('PROVISIONING').update({ associateId: 4 }, T1);
    expect(bound.update({ associateId: 5 }, T1).owner.associateId).toBe(5);
    const active = bound.assignCvu(CVU, 'cta.0000009', T1);
    expect(() => active.update({ associateId: 5 }, T1)).toThrow(expect.objectContaining({ code: 'receivable-account-owner-immutable' }));
    expect(active.update({ associateId: 4 }, T1).owner.associateId).toBe(4);
  });

  it('counts failed attempts but not pending answers', () => {
    const a = accountIn('PROVISIONING').retryProvisioning(T1, null, T1).retryProvisioning(T1, 'TIMEOUT', T1);
    expect(a.toSnapshot().provisioning).toMatchObject({ attempts: 1, lastError: 'TIMEOUT' });
  });
});
