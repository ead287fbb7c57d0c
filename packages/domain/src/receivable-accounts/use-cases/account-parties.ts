import { DomainError, NotAccessibleError, NotFoundError } from '../../shared/domain-error';
import { ownedBy } from '../../shared/owned';
import type { TransactionScope } from '../../transaction-scope';
import type { Associate } from '../../associates/associate';
import type { Customer } from '../../customers/customer';
import { ownerTypeOf, type AccountOwner } from '../owner';
import type { ReceivableAccount } from '../receivable-account';

/** The customer an account is opened or bound for (the caller's own: absent only if deleted meanwhile). */
export async function customerOf(tx: Pick<TransactionScope, 'customers'>, customerId: number): Promise<Customer> {
  const customer = await tx.customers.get(customerId);
  if (!customer) throw new NotFoundError('customer', customerId);
  return customer;
}

/** The customer's operating model must allow the owner's type. */
export function assertOwnerTypeEnabled(customer: Customer, owner: AccountOwner): void {
  const type = ownerTypeOf(owner);
  if (!customer.enabledOwnerTypes.includes(type)) throw new DomainError('owner-type-not-supported', `owner type ${type} is not enabled for this customer`);
}

/** The client must be the customer's own. */
export async function assertOwnClient(tx: Pick<TransactionScope, 'clients'>, customerId: number, clientId: number): Promise<void> {
  ownedBy(await tx.clients.getForUpdate(clientId), customerId, 'client', clientId);
}

/** The associate must be the customer's own and ACTIVE. */
export async function assertUsableAssociate(tx: Pick<TransactionScope, 'associates'>, customerId: number, associateId: number): Promise<Associate> {
  return usableAssociate(await tx.associates.getForShare(associateId), customerId, associateId);
}

/** assertUsableAssociate on an associate already read (`found`, undefined when there is none). */
export function usableAssociate(found: Associate | undefined, customerId: number, associateId: number): Associate {
  const associate = ownedBy(found, customerId, 'associate', associateId);
  if (associate.status !== 'ACTIVE') throw new DomainError('associate-disabled', `associate ${associateId} is DISABLED`);
  return associate;
}

/** One account per (client, associate, currency) per customer: 409 naming the existing one. */
export function alreadyExists(existing: ReceivableAccount): DomainError {
  return new DomainError('receivable-account-already-exists', `receivable account ${existing.id} already exists for this owner and currency`, {
    existingResourceId: existing.id,
  });
}

export async function assertOwnerFree(tx: Pick<TransactionScope, 'receivableAccounts'>, customerId: number, owner: AccountOwner): Promise<void> {
  const existing = await tx.receivableAccounts.findByOwner(customerId, owner, 'ARS');
  if (existing) throw alreadyExists(existing);
}

/**
 * The customer's own receivable account named by a request, telling an unknown id (404), another customer's
 * account of either kind (403: one id names one account of either kind) and a current account of the customer's
 * (422: current accounts take neither receivables nor client transfers).
 */
export async function receivingAccount(
  tx: Pick<TransactionScope, 'receivableAccounts' | 'currentAccounts'>,
  customerId: number,
  accountId: number,
  lock: 'lock' | 'read',
): Promise<ReceivableAccount> {
  const found = lock === 'lock' ? await tx.receivableAccounts.getForUpdate(accountId) : await tx.receivableAccounts.get(accountId);
  return ownReceivingAccount(found, customerId, accountId, found ? undefined : await tx.currentAccounts.get(accountId));
}

/** receivingAccount on an account already read (`found`), told the current account of that id when there is none. */
export function ownReceivingAccount(
  found: ReceivableAccount | undefined,
  customerId: number,
  accountId: number,
  current: { readonly customerId: number } | undefined,
): ReceivableAccount {
  if (!found && current) {
    if (current.customerId !== customerId) throw new NotAccessibleError('account', accountId);
    throw new DomainError('current-account-not-receivable-enabled', `account ${accountId} is a current account; it takes neither receivables nor collections`);
  }
  if (!found) throw new NotFoundError('receivable account', accountId);
  return ownedBy(found, customerId, 'receivable account', accountId);
}
