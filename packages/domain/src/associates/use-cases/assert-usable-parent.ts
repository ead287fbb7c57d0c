import { DomainError } from '../../shared/domain-error';
import { ownedBy } from '../../shared/owned';
import type { TransactionScope } from '../../transaction-scope';

/** A supervisor must be the customer's own, existing and ACTIVE associate. */
export async function assertUsableParent(tx: Pick<TransactionScope, 'associates'>, customerId: number, parentId: number | null): Promise<void> {
  if (parentId === null) return;
  const parent = ownedBy(await tx.associates.getForShare(parentId), customerId, 'parent associate', parentId);
  if (parent.status !== 'ACTIVE') {
    throw new DomainError('associate-disabled', `parent associate ${parentId} is DISABLED`);
  }
}
