import { Associate, DomainError, type AssociateOperation, type AssociateStatus, type ErrorCode } from '../src';
import { anAssociateDetails, everyPair, expectMove } from '../testing';

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

/** Every status and operation: `satisfies` makes the compiler name the one left out when a type grows. */
const STATUSES = Object.keys({ ACTIVE: true, DISABLED: true } satisfies Record<AssociateStatus, true>) as AssociateStatus[];
const OPERATIONS = Object.keys({ update: true, disable: true, activate: true } satisfies Record<AssociateOperation, true>) as AssociateOperation[];

describe('associate state machine', () => {
  /** What each pair gives: the status the table leads to, or the code it is refused with. */
  const matrix: ReadonlyArray<[AssociateStatus, AssociateOperation, AssociateStatus | ErrorCode]> = [
    ['ACTIVE', 'update', 'ACTIVE'],
    ['ACTIVE', 'disable', 'DISABLED'],
    ['ACTIVE', 'activate', 'invalid-status-transition'],
    ['DISABLED', 'update', 'associate-disabled'],
    ['DISABLED', 'disable', 'associate-disabled'],
    ['DISABLED', 'activate', 'ACTIVE'],
  ];

  it.each(everyPair(STATUSES, OPERATIONS, matrix))('from %s, %s gives %s, as the table says', (from, operation, outcome) => {
    expect(Associate.nextStatus(from, operation) ?? 'refused').toBe((STATUSES as string[]).includes(outcome) ? outcome : 'refused');
    const before = associateIn(from);
    expectMove(STATUSES, before, () => apply(before, operation), outcome, LATER);
  });

  it('states each (status, operation) pair once', () => {
    expect(matrix).toHaveLength(STATUSES.length * OPERATIONS.length);
  });

  it('never changes the taxId on update', () => {
    const associate = associateIn('ACTIVE');
    expect(() => associate.replaceDetails(anAssociateDetails({ taxId: '20111111112' }), LATER)).toThrow(DomainError);
  });
});
