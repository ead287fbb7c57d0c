import type { Clock } from '../../shared/clock';
import { ValidationError } from '../../shared/domain-error';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { ownerTypeOf, type AccountOwner } from '../owner';
import { ReceivableAccount } from '../receivable-account';
import { alreadyExists, assertOwnClient, assertOwnerTypeEnabled, assertUsableAssociate, customerOf } from './account-parties';

export interface OpenReceivableAccountInput {
  readonly customerId: number;
  readonly clientId?: number | null;
  readonly associateId?: number | null;
  readonly currencyCode?: string;
}

/** The owner an opening names, which must be someone, in the one currency there is. */
export function requestedOwner(input: Omit<OpenReceivableAccountInput, 'customerId'>): AccountOwner {
  const owner = { clientId: input.clientId ?? null, associateId: input.associateId ?? null };
  ownerTypeOf(owner);
  if (input.currencyCode !== undefined && input.currencyCode !== 'ARS') throw ValidationError.of('currencyCode', 'only ARS is supported');
  return owner;
}

/** Told when an account starts PROVISIONING, so a worker can ask the provider at once instead of at its next tick. */
export interface ProvisioningTrigger {
  accountOpened(): void;
}

/** POST /v1/receivable-accounts: a new account in PROVISIONING; its CVU is requested asynchronously. */
export class OpenReceivableAccount {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'customers' | 'clients' | 'associates' | 'receivableAccounts'>>,
    private readonly clock: Clock,
    private readonly trigger: ProvisioningTrigger,
  ) {}

  async execute(input: OpenReceivableAccountInput): Promise<ReceivableAccount> {
    const owner = requestedOwner(input);
    const account = await this.uow.run(async (tx) => {
      assertOwnerTypeEnabled(await customerOf(tx, input.customerId), owner);
      if (owner.clientId !== null) await assertOwnClient(tx, input.customerId, owner.clientId);
      if (owner.associateId !== null) await assertUsableAssociate(tx, input.customerId, owner.associateId);
      const draft = ReceivableAccount.open(
        { id: await tx.receivableAccounts.nextId(), customerId: input.customerId, owner, currencyCode: 'ARS' },
        this.clock.now(),
      );
      const { account: stored, created } = await tx.receivableAccounts.insertIfAbsent(draft);
      if (!created) throw alreadyExists(stored);
      return stored;
    });
    this.uow.afterCommit(() => this.trigger.accountOpened());
    return account;
  }
}
