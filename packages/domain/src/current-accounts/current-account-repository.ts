import type { CurrentAccount } from './current-account';

export interface CurrentAccountRepository {
  /** Draws from the id sequence shared with receivable accounts, so one id names one account of either kind. */
  nextId(): Promise<number>;
  insert(account: CurrentAccount): Promise<void>;
  /** Any customer's, so that callers can tell another customer's account (403) from none (404). */
  get(id: number): Promise<CurrentAccount | undefined>;
  listByCustomer(customerId: number): Promise<readonly CurrentAccount[]>;
}
