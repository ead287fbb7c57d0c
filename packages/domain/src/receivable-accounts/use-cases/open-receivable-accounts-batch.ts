import type { BatchOutcome } from '../../shared/batch';
import type { Clock } from '../../shared/clock';
import { DomainError } from '../../shared/domain-error';
import { retryingLostRaces } from '../../shared/lost-races';
import { ownedBy } from '../../shared/owned';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import type { AccountOwner } from '../owner';
import { ReceivableAccount } from '../receivable-account';
import { alreadyExists, assertOwnerTypeEnabled, customerOf, usableAssociate } from './account-parties';
import { requestedOwner, type OpenReceivableAccountInput, type ProvisioningTrigger } from './open-receivable-account';

export const MAX_BATCH_ITEMS = 1000;

type BatchScope = Pick<TransactionScope, 'customers' | 'clients' | 'associates' | 'receivableAccounts'>;

const ownerKey = (owner: AccountOwner) => `${owner.clientId}:${owner.associateId}`;
const present = (ids: ReadonlyArray<number | null>): number[] => [...new Set(ids.filter((id): id is number => id !== null))];

/**
 * POST /v1/receivable-accounts/batches, set-based: the items' clients and associates read in one query each, the
 * accounts inserted in one statement. Each item is answered as if posted alone, in order: a repeat of an earlier
 * item's owner is 409 naming the account that item opened (or found).
 */
export class OpenReceivableAccountsBatch {
  constructor(
    private readonly uow: UnitOfWork<BatchScope>,
    private readonly clock: Clock,
    private readonly trigger: ProvisioningTrigger,
  ) {}

  async execute(input: {
    customerId: number;
    /** A malformed item is given as its error (that item's 400), answered in its place. */
    items: ReadonlyArray<Omit<OpenReceivableAccountInput, 'customerId'> | DomainError>;
  }): Promise<BatchOutcome<ReceivableAccount>[]> {
    const { customerId } = input;
    // A deadlock's victim (a concurrent writer held an owner's new row) tries again, and finds that row stored.
    const results = await retryingLostRaces(this.uow, () => this.uow.run((tx) => this.open(tx, customerId, input.items)));
    if (results.some((result) => 'value' in result)) this.uow.afterCommit(() => this.trigger.accountOpened());
    return results;
  }

  private async open(
    tx: BatchScope,
    customerId: number,
    items: ReadonlyArray<Omit<OpenReceivableAccountInput, 'customerId'> | DomainError>,
  ): Promise<BatchOutcome<ReceivableAccount>[]> {
    const customer = await customerOf(tx, customerId);
    const owners = items.map((item) => {
      if (item instanceof DomainError) return item;
      try {
        return requestedOwner(item);
      } catch (error) {
        if (error instanceof DomainError) return error;
        throw error;
      }
    });
    const named = owners.filter((owner): owner is AccountOwner => !(owner instanceof DomainError));
    const clients = new Map((await tx.clients.getMany(present(named.map((o) => o.clientId)))).map((c) => [c.id, c]));
    const associates = new Map((await tx.associates.getManyForShare(present(named.map((o) => o.associateId)))).map((a) => [a.id, a]));
    const checked = owners.map((owner) => {
      if (owner instanceof DomainError) return owner;
      try {
        assertOwnerTypeEnabled(customer, owner);
        if (owner.clientId !== null) ownedBy(clients.get(owner.clientId), customerId, 'client', owner.clientId);
        if (owner.associateId !== null) usableAssociate(associates.get(owner.associateId), customerId, owner.associateId);
        return owner;
      } catch (error) {
        if (error instanceof DomainError) return error;
        throw error;
      }
    });
    // The first item of each owner opens its account; the ones after it find that account, as they would alone.
    const firsts = new Map<string, AccountOwner>();
    for (const owner of checked) if (!(owner instanceof DomainError) && !firsts.has(ownerKey(owner))) firsts.set(ownerKey(owner), owner);
    const ids = await tx.receivableAccounts.nextIds(firsts.size);
    const now = this.clock.now();
    const drafts = [...firsts.values()].map((owner, i) => ReceivableAccount.open({ id: ids[i], customerId, owner, currencyCode: 'ARS' }, now));
    const stored = drafts.length === 0 ? [] : await tx.receivableAccounts.insertManyIfAbsent(drafts);
    const byOwner = new Map([...firsts.keys()].map((key, i) => [key, { ...stored[i], answered: false }]));
    return checked.map((owner, index): BatchOutcome<ReceivableAccount> => {
      if (owner instanceof DomainError) return { index, error: owner };
      const outcome = byOwner.get(ownerKey(owner))!;
      const opened = outcome.created && !outcome.answered;
      outcome.answered = true;
      return opened ? { index, value: outcome.account } : { index, error: alreadyExists(outcome.account) };
    });
  }
}
