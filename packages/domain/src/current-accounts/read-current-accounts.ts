import type { Clock } from '../shared/clock';
import { ownedBy } from '../shared/owned';
import type { Page, PageRequest } from '../shared/page';
import type { Movement } from '../ledger/movement';
import type { LedgerQueries, MovementListFilter } from '../ledger/ledger-repository';
import type { ReceivableAccountQueries } from '../receivable-accounts/receivable-account-repository';
import type { CurrentAccountListFilter, CurrentAccountQueries, CurrentAccountRecord } from './current-account-queries';

export class GetCurrentAccount {
  constructor(private readonly queries: CurrentAccountQueries) {}

  async execute(input: { customerId: number; accountId: number }): Promise<CurrentAccountRecord> {
    const record = await this.queries.get(input.accountId);
    ownedBy(record?.account, input.customerId, 'current account', input.accountId);
    return record!;
  }
}

export class ListCurrentAccounts {
  constructor(private readonly queries: CurrentAccountQueries) {}

  execute(input: { filter: CurrentAccountListFilter; page: PageRequest }): Promise<Page<CurrentAccountRecord>> {
    return this.queries.list(input.filter, input.page);
  }
}

/** The balances object: settled funds sit in the CVU wallet; CASH and CVU_TAX stay 0 until a feature fills them. */
export class GetBalances {
  constructor(
    private readonly accounts: GetCurrentAccount,
    private readonly clock: Clock,
  ) {}

  async execute(input: { customerId: number; accountId: number }) {
    const { account, balanceMinor } = await this.accounts.execute(input);
    return { currentAccountId: account.id, currencyCode: account.currencyCode, cvuMinor: balanceMinor, cashMinor: 0n, cvuTaxMinor: 0n, asOf: this.clock.now() };
  }
}

/** Movements of a receivable or current account of the caller's. */
export class ListMovements {
  constructor(
    private readonly ledger: LedgerQueries,
    private readonly currentAccounts: CurrentAccountQueries,
    private readonly receivableAccounts: ReceivableAccountQueries,
  ) {}

  async execute(input: { filter: MovementListFilter; page: PageRequest }): Promise<Page<Movement>> {
    const { customerId, accountId, accountKind } = input.filter;
    if (accountKind === 'CURRENT') ownedBy((await this.currentAccounts.get(accountId))?.account, customerId, 'current account', accountId);
    else ownedBy((await this.receivableAccounts.get(accountId))?.account, customerId, 'receivable account', accountId);
    return this.ledger.listMovements(input.filter, input.page);
  }
}
