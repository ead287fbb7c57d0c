import { Associate, DomainError, type AssociateOperation, type AssociateStatus } from '../src';
import { anAssociateDetails } from '../testing';

const NOW = new Date('2026-02-01T00:00:00Z');
const LATER = new Date('2026-02-02T00:00:00Z');

function associateIn(status: AssociateStatus): Associate {
  const active = Associate.rehydrate({ ...Associate.register(1, anAssociateDetails(), NOW), id: 7 });
  return status === 'ACTIVE' ? active : active.disable(NOW);
}

const apply = (associate: Associate, operation: AssociateOperation): Associate =>
  operation === 'update'
    ? associate.replaceDetails(anAssociateDetails({ phone: '+5491100000009' }), LATER)
    : operation === 'disable'
      ? associate.disable(LATER)
      : associate.activate(LATER);

describe('associate state machine', () => {
  const matrix: ReadonlyArray<[AssociateStatus, AssociateOperation, AssociateStatus | string]> = [
    ['ACTIVE', 'update', 'ACTIVE'],
    ['ACTIVE', 'disable', 'DISABLED'],
    ['ACTIVE', 'activate', 'invalid-status-transition'],
    ['DISABLED', 'update', 'associate-disabled'],
    ['DISABLED', 'disable', 'associate-disabled'],
    ['DISABLED', 'activate', 'ACTIVE'],
  ];

  it.each(matrix)('from %s, %s gives %s', (from, operation, outcome) => {
    const before = associateIn(from);
    if (outcome === 'ACTIVE' || outcome === 'DISABLED') {
      const after = apply(before, operation);
      expect(after.status).toBe(outcome);
      expect(after.toSnapshot().version).toBe(before.toSnapshot().version + 1);
      expect(after.toSnapshot().modificationDate).toEqual(LATER);
    } else {
      expect(() => apply(before, operation)).toThrow(expect.objectContaining({ code: outcome }));
    }
  });

  it('covers every (status, operation) pair of the table', () => {
    const statuses: AssociateStatus[] = ['ACTIVE', 'DISABLED'];
    const operations: AssociateOperation[] = ['update', 'disable', 'activate'];
    expect(matrix).toHaveLength(statuses.length * operations.length);
  });

  it('never changes the taxId on update', () => {
    const associate = associateIn('ACTIVE');
    expect(() => associate.replaceDetails(anAssociateDetails({ taxId: '20111111112' }), LATER)).toThrow(DomainError);
  });
});
