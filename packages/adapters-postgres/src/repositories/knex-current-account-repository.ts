import type { Knex } from 'knex';
import type {
  CurrentAccount,
  CurrentAccountListFilter,
  CurrentAccountQueries,
  CurrentAccountRecord,
  CurrentAccountRepository,
  Page,
  PageRequest,
} from '@rcs/domain';
import { applyCommonFilter, fetchPage } from './paging';

interface CurrentAccountRow {
  id: string;
  customer_id: string;
  account_type: CurrentAccount['accountType'];
  cvu: string;
  alias: string;
  currency_code: CurrentAccount['currencyCode'];
  status: CurrentAccount['status'];
  last_settlement_date: Date | null;
  creation_date: Date;
  modification_date: Date;
  balance_minor: string;
}

export const toCurrentAccount = (row: CurrentAccountRow): CurrentAccount => ({
  id: Number(row.id),
  customerId: Number(row.customer_id),
  accountType: row.account_type,
  cvu: row.cvu,
  alias: row.alias,
  currencyCode: row.currency_code,
  status: row.status,
  lastSettlementDate: row.last_settlement_date,
  creationDate: row.creation_date,
  modificationDate: row.modification_date,
});

export class KnexCurrentAccountRepository implements CurrentAccountRepository {
  constructor(private readonly trx: Knex.Transaction) {}

  async nextId(): Promise<number> {
    const { rows } = await this.trx.raw<{ rows: Array<{ id: string }> }>(`SELECT nextval('account_id_seq') AS id`);
    return Number(rows[0].id);
  }

  async insert(account: CurrentAccount): Promise<void> {
    await this.trx('current_accounts').insert({
      id: account.id,
      customer_id: account.customerId,
      account_type: account.accountType,
      cvu: account.cvu,
      alias: account.alias,
      currency_code: account.currencyCode,
      status: account.status,
      last_settlement_date: account.lastSettlementDate,
      creation_date: account.creationDate,
      modification_date: account.modificationDate,
    });
  }

  async get(id: number): Promise<CurrentAccount | undefined> {
    const row = await this.trx('current_accounts').where({ id }).first<CurrentAccountRow | undefined>();
    return row && toCurrentAccount(row);
  }

  async getMany(ids: readonly number[]): Promise<readonly CurrentAccount[]> {
    const rows = await this.trx('current_accounts')
      .whereRaw('id = ANY(?::bigint[])', [[...new Set(ids)]])
      .select<CurrentAccountRow[]>('*');
    return rows.map(toCurrentAccount);
  }

  async lockBalances(ids: readonly number[]): Promise<readonly CurrentAccountRecord[]> {
    if (ids.length === 0) return [];
    // In id order, as the settlement's credit locks them, so two transactions locking several cannot deadlock.
    const { rows } = await this.trx.raw<{ rows: CurrentAccountRow[] }>(
      'SELECT * FROM current_accounts WHERE id = ANY(?::bigint[]) ORDER BY id FOR NO KEY UPDATE',
      [[...new Set(ids)]],
    );
    return rows.map((row) => ({ account: toCurrentAccount(row), balanceMinor: BigInt(row.balance_minor) }));
  }

  async listByCustomer(customerId: number): Promise<readonly CurrentAccount[]> {
    const rows = await this.trx('current_accounts').where({ customer_id: customerId }).orderBy('id').select<CurrentAccountRow[]>('*');
    return rows.map(toCurrentAccount);
  }
}

const toRecord = (row: CurrentAccountRow): CurrentAccountRecord => ({ account: toCurrentAccount(row), balanceMinor: BigInt(row.balance_minor) });

export class KnexCurrentAccountQueries implements CurrentAccountQueries {
  constructor(private readonly db: () => Knex) {}

  async get(id: number): Promise<CurrentAccountRecord | undefined> {
    const row = await this.db()('current_accounts').where({ id }).first<CurrentAccountRow | undefined>();
    return row && toRecord(row);
  }

  list(filter: CurrentAccountListFilter, page: PageRequest): Promise<Page<CurrentAccountRecord>> {
    const query = this.db()('current_accounts').where('customer_id', filter.customerId);
    if (filter.accountType !== undefined) query.where('account_type', filter.accountType);
    if (filter.status !== undefined) query.where('status', filter.status);
    applyCommonFilter(query, filter, 'current_accounts');
    return fetchPage(query, 'current_accounts', page, toRecord);
  }
}
