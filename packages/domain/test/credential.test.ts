import { Credential, CREDENTIAL_STATUSES, type CredentialOperation, type CredentialStatus } from '../src';
import { everyPair } from '../testing';

const T0 = new Date('2026-02-01T00:00:00Z');

const credentialIn = (status: CredentialStatus) =>
  Credential.rehydrate({ id: 4, customerId: 1, clientId: 'erp-1', secretHash: 'hash', scopes: ['clients:read'], status, creationDate: T0 });

const apply: Record<CredentialOperation, (c: Credential) => Credential> = {
  revoke: (c) => c.revoke(),
};
const OPERATIONS = Object.keys(apply) as CredentialOperation[];

describe('credential state machine', () => {
  const matrix: ReadonlyArray<[CredentialStatus, CredentialOperation, CredentialStatus | 'refused']> = [
    ['ACTIVE', 'revoke', 'REVOKED'],
    ['REVOKED', 'revoke', 'refused'],
  ];

  it.each(everyPair(CREDENTIAL_STATUSES, OPERATIONS, matrix))('from %s, %s gives %s, as the table says', (from, operation, outcome) => {
    expect(Credential.nextStatus(from, operation) ?? 'refused').toBe(outcome);
    const before = credentialIn(from);
    if (outcome === 'refused') {
      expect(() => apply[operation](before)).toThrow(expect.objectContaining({ code: 'invalid-status-transition' }));
      return;
    }
    const after = apply[operation](before);
    expect(after.status).toBe(outcome);
    expect(after.storedStatus).toBe(from);
  });
});
