import type { Knex } from 'knex';
import {
  RECEIVABLE_ACCOUNT_STATUSES,
  type Page,
  type PageRequest,
  type ReceivableAccountListFilter,
  type ReceivableAccountQueries,
  type ReceivableAccountRecord,
} from '@rcs/domain';
import { maintainedTotal, type CountedList } from './list-counts';
import { applyCommonFilter, fetchPage } from './paging';
import { OWNER_COLUMNS, ownersOf, pendingAmountSql, toReceivableAccount, type OwnerColumns, type ReceivableAccountRow } from './receivable-account-rows';

type Row = ReceivableAccountRow & OwnerColumns & { pending_amount_minor: string };

const PENDING_AMOUNT = `${pendingAmountSql('receivable_accounts')} AS pending_amount_minor`;

const toRecord = (row: Row): ReceivableAccountRecord => ({
  account: toReceivableAccount(row),
  owners: ownersOf(row),
  pendingAmountMinor: BigInt(row.pending_amount_minor),
});

const COUNTED: CountedList<ReceivableAccountListFilter> = { list: 'receivable_accounts', scopes: { clientId: 'client', associateId: 'associate' } };

/**
 * A list without status is read as one ordered range per status of the customer's index (customer, status, then
 * newest first), merged: without it, page 1 of a customer's accounts sorted every one of them.
 */
const BY_STATUS = { column: 'status', values: RECEIVABLE_ACCOUNT_STATUSES };

export class KnexReceivableAccountQueries implements ReceivableAccountQueries {
  /** `db` gives what a read runs on: the pool, or the transaction the storage ports are bound to. */
  constructor(private readonly db: () => Knex) {}

  private base(): Knex.QueryBuilder {
    return this.db()('receivable_accounts')
      .leftJoin('clients as c', 'c.id', 'receivable_accounts.client_id')
      .leftJoin('associates as a', 'a.id', 'receivable_accounts.associate_id');
  }

  private columns(): Array<string | Knex.Raw> {
    return [...OWNER_COLUMNS, this.db().raw(PENDING_AMOUNT)];
  }

  async get(id: number): Promise<ReceivableAccountRecord | undefined> {
    const row = await this.base()
      .select('receivable_accounts.*', ...this.columns())
      .where('receivable_accounts.id', id)
      .first<Row | undefined>();
    return row && toRecord(row);
  }

  list(filter: ReceivableAccountListFilter, page: PageRequest): Promise<Page<ReceivableAccountRecord>> {
    const t = 'receivable_accounts';
    const query = applyCommonFilter(this.base().where(`${t}.customer_id`, filter.customerId), filter, t);
    if (filter.status !== undefined) query.where(`${t}.status`, filter.status);
    if (filter.clientId !== undefined) query.where(`${t}.client_id`, filter.clientId);
    if (filter.associateId !== undefined) query.where(`${t}.associate_id`, filter.associateId);
    if (filter.cvu !== undefined) query.where(`${t}.cvu`, filter.cvu);
    // lower(alias) is what migration 008's unique index holds, and aliases are one in any letter case.
    if (filter.alias !== undefined) query.whereRaw(`lower(${t}.alias) = lower(?)`, [filter.alias]);
    // The customer named again on the client, so clients_tax_id (customer_id, tax_id) and clients_branch find it.
    if (filter.clientTaxId !== undefined) query.where('c.customer_id', filter.customerId).where('c.tax_id', filter.clientTaxId);
    if (filter.branchExternalCode !== undefined) query.where('c.customer_id', filter.customerId).where('c.branch_external_code', filter.branchExternalCode);
    if (filter.ownerType === 'CLIENT') query.whereNotNull(`${t}.client_id`).whereNull(`${t}.associate_id`);
    if (filter.ownerType === 'ASSOCIATE') query.whereNull(`${t}.client_id`).whereNotNull(`${t}.associate_id`);
    if (filter.ownerType === 'CLIENT_AND_ASSOCIATE') query.whereNotNull(`${t}.client_id`).whereNotNull(`${t}.associate_id`);
    // A client's tax id or branch names a few clients: their accounts are found from them and sorted, where a walk
    // of the customer's accounts in order would pass over every other client's.
    const byClientKey = filter.clientTaxId !== undefined || filter.branchExternalCode !== undefined;
    return fetchPage(query, t, page, toRecord, {
      columns: this.columns(),
      total: maintainedTotal(this.db(), COUNTED, filter),
      ...(filter.status === undefined && !byClientKey ? { branches: BY_STATUS } : {}),
    });
  }
}
