import type { CommonListFilter, Page, PageRequest } from '../shared/page';
import type { CurrentAccount, CurrentAccountStatus, CurrentAccountType } from './current-account';

/** A current account with its balance: the settled funds it holds. */
export interface CurrentAccountRecord {
  readonly account: CurrentAccount;
  readonly balanceMinor: bigint;
}

export interface CurrentAccountListFilter extends CommonListFilter {
  readonly customerId: number;
  readonly accountType?: CurrentAccountType;
  readonly status?: CurrentAccountStatus;
}

export interface CurrentAccountQueries {
  get(id: number): Promise<CurrentAccountRecord | undefined>;
  list(filter: CurrentAccountListFilter, page: PageRequest): Promise<Page<CurrentAccountRecord>>;
}
