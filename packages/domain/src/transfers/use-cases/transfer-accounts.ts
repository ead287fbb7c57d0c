import { DomainError, NotFoundError } from '../../shared/domain-error';
import { ownedBy } from '../../shared/owned';
import type { TransactionScope } from '../../transaction-scope';
import type { CurrentAccount } from '../../current-accounts/current-account';

/**
 * The customer's own current account named by `field` of a transfer: unknown is 404, another customer's 403, and a
 * receivable account (ids name one account of either kind) 422: collection accounts are swept by settlement, and
 * never pay or receive transfers.
 */
export async function transferAccount(
  tx: Pick<TransactionScope, 'currentAccounts' | 'receivableAccounts'>,
  customerId: number,
  accountId: number,
  field: string,
): Promise<CurrentAccount> {
  const account = await tx.currentAccounts.get(accountId);
  if (account) return ownedBy(account, customerId, 'current account', accountId);
  const receivable = await tx.receivableAccounts.get(accountId);
  if (!receivable) throw new NotFoundError('current account', accountId);
  ownedBy(receivable, customerId, 'account', accountId);
  throw new DomainError(
    'receivable-account-not-transfer-enabled',
    `${field} ${accountId} is a receivable account; transfers move money between current accounts and out of them`,
  );
}
