import type { CurrentAccount } from './current-account';
import type { CurrentAccountRecord } from './current-account-queries';

export interface CurrentAccountRepository {
  /** Draws from the id sequence shared with receivable accounts, so one id names one account of either kind. */
  nextId(): Promise<number>;
  insert(account: CurrentAccount): Promise<void>;
  /** Any customer's, so that callers can tell another customer's account (403) from none (404). */
  get(id: number): Promise<CurrentAccount | undefined>;
  /** Those of `ids` that are current accounts, any customer's (a batch's items naming ids no receivable account has). */
  getMany(ids: readonly number[]): Promise<readonly CurrentAccount[]>;
  /**
   * The accounts with their balances, locked until the transaction ends (lowest id first, so lockers of several
   * never deadlock): a balance read here stays true for the debits this transaction then writes.
   */
  lockBalances(ids: readonly number[]): Promise<readonly CurrentAccountRecord[]>;
  listByCustomer(customerId: number): Promise<readonly CurrentAccount[]>;
}
