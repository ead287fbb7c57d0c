import {
  ConcurrentModificationError,
  Transfer,
  type NewTransfer,
  type Page,
  type PageRequest,
  type TransferListFilter,
  type TransferQueries,
  type TransferRepository,
  type TransferSnapshot,
} from '../../src';
import { nextId, saveVersioned, type TablesRef, type TablesSource } from './in-memory-tables';
import { matchesCommon, pageOf } from './in-memory-paging';

export class InMemoryTransferRepository implements TransferRepository {
  constructor(private readonly ref: TablesRef) {}

  async insert(draft: NewTransfer): Promise<Transfer> {
    const stored: TransferSnapshot = { ...draft, id: nextId(this.ref.tables, 'transfer'), modificationDate: draft.creationDate, version: 1 };
    this.ref.tables.transfers.set(stored.id, stored);
    return Transfer.rehydrate(stored);
  }

  async getForUpdate(id: number): Promise<Transfer | undefined> {
    const found = this.ref.tables.transfers.get(id);
    return found && Transfer.rehydrate(found);
  }

  async update(transfer: Transfer): Promise<void> {
    const next = transfer.toSnapshot();
    saveVersioned(this.ref.tables.transfers, next, () => new ConcurrentModificationError('transfer', next.id));
  }
}

export class InMemoryTransferQueries implements TransferQueries {
  constructor(private readonly source: TablesSource) {}

  async get(id: number): Promise<Transfer | undefined> {
    const found = this.source.visibleTables().transfers.get(id);
    return found && Transfer.rehydrate(found);
  }

  async list(filter: TransferListFilter, page: PageRequest): Promise<Page<Transfer>> {
    const f = filter;
    const rows = [...this.source.visibleTables().transfers.values()].filter(
      (t) =>
        t.customerId === f.customerId &&
        matchesCommon(t, f) &&
        (f.type === undefined || t.type === f.type) &&
        (f.status === undefined || t.status === f.status) &&
        (f.sourceAccountId === undefined || t.sourceAccountId === f.sourceAccountId) &&
        (f.externalId === undefined || t.externalId === f.externalId),
    );
    return pageOf(rows, page, (row) => Transfer.rehydrate(row));
  }
}
