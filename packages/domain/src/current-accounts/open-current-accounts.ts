import type { Clock } from '../shared/clock';
import { composeCvu } from '../shared/bank-account-number';
import { CURRENT_ACCOUNT_ALIAS_TEMPLATES, renderAlias } from '../receivable-accounts/alias-template';
import type { TransactionScope } from '../transaction-scope';
import type { CurrentAccount, CurrentAccountType } from './current-account';

/** Entity code under which the service's own current accounts are numbered (000 + provider 0003). */
export const CURRENT_ACCOUNT_ENTITY_CODE = '0000003';

/** Opens the MAIN and SUB current accounts every customer starts with, with valid CVUs and aliases. */
export async function openCurrentAccounts(tx: Pick<TransactionScope, 'currentAccounts'>, customerId: number, clock: Clock): Promise<void> {
  const now = clock.now();
  for (const accountType of ['MAIN', 'SUB'] as const satisfies readonly CurrentAccountType[]) {
    const id = await tx.currentAccounts.nextId();
    const account: CurrentAccount = {
      id,
      customerId,
      accountType,
      cvu: composeCvu(CURRENT_ACCOUNT_ENTITY_CODE, BigInt(id)),
      alias: renderAlias(CURRENT_ACCOUNT_ALIAS_TEMPLATES[accountType], id),
      currencyCode: 'ARS',
      status: 'ACTIVE',
      lastSettlementDate: null,
      creationDate: now,
      modificationDate: now,
    };
    await tx.currentAccounts.insert(account);
  }
}
