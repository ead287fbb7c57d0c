import type { CurrentAccount } from './current-account';

export interface CurrentAccountRepository {
  /** Draws from the id sequence shared with receivable accounts, so one id names one account of either kind. */
  nextId(): Promise<number>;
  insert(account: CurrentAccount): Promise<void>;
  listByCustomer(customerId: number): Promise<readonly CurrentAccount[]>;
}
