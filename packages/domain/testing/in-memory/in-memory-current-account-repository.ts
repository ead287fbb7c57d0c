import type { CurrentAccount, CurrentAccountRecord, CurrentAccountRepository } from '../../src';
import { nextId, type TablesRef } from './in-memory-tables';

export class InMemoryCurrentAccountRepository implements CurrentAccountRepository {
  constructor(private readonly ref: TablesRef) {}

  async nextId(): Promise<number> {
    return nextId(this.ref.tables, 'account');
  }

  async insert(account: CurrentAccount): Promise<void> {
    this.ref.tables.currentAccounts.set(account.id, account);
  }

  async get(id: number): Promise<CurrentAccount | undefined> {
    return this.ref.tables.currentAccounts.get(id);
  }

  async getMany(ids: readonly number[]): Promise<readonly CurrentAccount[]> {
    return [...new Set(ids)].flatMap((id) => this.ref.tables.currentAccounts.get(id) ?? []);
  }

  async lockBalances(ids: readonly number[]): Promise<readonly CurrentAccountRecord[]> {
    return [...new Set(ids)]
      .sort((a, b) => a - b)
      .flatMap((id) => {
        const account = this.ref.tables.currentAccounts.get(id);
        return account ? [{ account, balanceMinor: this.ref.tables.balances.get(id) ?? 0n }] : [];
      });
  }

  async listByCustomer(customerId: number): Promise<readonly CurrentAccount[]> {
    return [...this.ref.tables.currentAccounts.values()].filter((a) => a.customerId === customerId);
  }
}
