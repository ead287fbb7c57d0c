import type { Page, PageRequest } from '../shared/page';
import type { CurrentAccount, CurrentAccountStatus, CurrentAccountType } from './current-account';

/** A current account with its balance: the settled funds it holds. */
export interface CurrentAccountRecord {
  readonly account: CurrentAccount;
  readonly balanceMinor: bigint;
}

export interface CurrentAccountListFilter {
  readonly customerId: number;
  readonly accountType?: CurrentAccountType;
  readonly status?: CurrentAccountStatus;
  readonly ids?: readonly number[];
}

export interface CurrentAccountQueries {
  get(id: number): Promise<CurrentAccountRecord | undefined>;
  list(filter: CurrentAccountListFilter, page: PageRequest): Promise<Page<CurrentAccountRecord>>;
}
