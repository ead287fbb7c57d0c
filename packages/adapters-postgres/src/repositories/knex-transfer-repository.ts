import type { Knex } from 'knex';
import {
  ConcurrentModificationError,
  type NewTransfer,
  type Page,
  type PageRequest,
  type Transfer,
  type TransferListFilter,
  type TransferQueries,
  type TransferRepository,
} from '@rcs/domain';
import { applyCommonFilter, fetchPage } from './paging';
import { lockedForChange } from './row-locks';
import { toTransfer, toTransferRow, type TransferRow } from './transfer-rows';

export class KnexTransferRepository implements TransferRepository {
  constructor(private readonly trx: Knex.Transaction) {}

  async insert(draft: NewTransfer): Promise<Transfer> {
    const [row] = await this.trx('transfers').insert(toTransferRow(draft)).returning<TransferRow[]>('*');
    return toTransfer(row);
  }

  async getForUpdate(id: number): Promise<Transfer | undefined> {
    const row = await lockedForChange(this.trx('transfers').where({ id }).select<TransferRow[]>('*')).first<TransferRow | undefined>();
    return row && toTransfer(row);
  }

  async update(transfer: Transfer): Promise<void> {
    const next = transfer.toSnapshot();
    const changed = await this.trx('transfers')
      .where({ id: next.id, version: next.version - 1 })
      .update(toTransferRow(next));
    if (changed !== 1) throw new ConcurrentModificationError('transfer', next.id);
  }
}

/** Column and filter member, for the exact-match filters (each served by an index leading with customer_id). */
const EXACT: ReadonlyArray<[string, keyof TransferListFilter]> = [
  ['type', 'type'],
  ['status', 'status'],
  ['source_account_id', 'sourceAccountId'],
  ['external_id', 'externalId'],
];

export class KnexTransferQueries implements TransferQueries {
  /** `db` gives the ambient transaction when there is one (KnexUnitOfWork.executor), else the pool. */
  constructor(private readonly db: () => Knex) {}

  async get(id: number): Promise<Transfer | undefined> {
    const row = await this.db()('transfers').where({ id }).first<TransferRow | undefined>();
    return row && toTransfer(row);
  }

  list(filter: TransferListFilter, page: PageRequest): Promise<Page<Transfer>> {
    const query = applyCommonFilter(this.db()('transfers').where('customer_id', filter.customerId), filter, 'transfers');
    for (const [column, member] of EXACT) if (filter[member] !== undefined) query.where(column, filter[member] as string | number);
    return fetchPage(query, 'transfers', page, toTransfer);
  }
}
