import {
  ConcurrentModificationError,
  Transfer,
  type DueTransfers,
  type QueuePosition,
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

  // Transactions run one at a time here: nothing is ever held by another, so locking and skipping are no-ops.
  async lockDue(due: DueTransfers): Promise<Transfer[]> {
    return this.due(due, (t) => t.type === 'INTERNAL_TRANSFER' || t.destination.cbuCvu !== null);
  }

  async dueUnresolved(due: DueTransfers & { readonly after?: QueuePosition }): Promise<Transfer[]> {
    const { after } = due;
    const past = (t: TransferSnapshot) =>
      !after ||
      (t.scheduledDate ?? '').localeCompare(after.scheduledDate ?? '') > 0 ||
      ((t.scheduledDate ?? '') === (after.scheduledDate ?? '') && t.id > after.id);
    return this.due(due, (t) => t.type === 'OUTGOING_TRANSFER' && t.destination.cbuCvu === null && past(t));
  }

  async lockLeaseEnded(now: Date, limit: number, customerId?: number): Promise<Transfer[]> {
    return [...this.ref.tables.transfers.values()]
      .filter((t) => t.status === 'IN_PROGRESS' && t.processing.claimedUntil! < now && (customerId === undefined || t.customerId === customerId))
      .sort((a, b) => a.processing.claimedUntil!.getTime() - b.processing.claimedUntil!.getTime() || a.id - b.id)
      .slice(0, limit)
      .map((t) => Transfer.rehydrate(t));
  }

  async lockInProgress(ids: readonly number[]): Promise<Transfer[]> {
    return [...new Set(ids)]
      .sort((a, b) => a - b)
      .flatMap((id) => {
        const t = this.ref.tables.transfers.get(id);
        return t?.status === 'IN_PROGRESS' ? [Transfer.rehydrate(t)] : [];
      });
  }

  async updateAll(transfers: readonly Transfer[]): Promise<void> {
    for (const t of transfers) await this.update(t);
  }

  private due(due: DueTransfers, matches: (t: TransferSnapshot) => boolean): Transfer[] {
    const day = (t: TransferSnapshot) => t.scheduledDate ?? '';
    return [...this.ref.tables.transfers.values()]
      .filter(
        (t) =>
          (t.status === 'PENDING' || t.status === 'SCHEDULED') &&
          Transfer.dueBy(t.scheduledDate, due.today) &&
          (due.customerId === undefined || t.customerId === due.customerId) &&
          matches(t),
      )
      .sort((a, b) => day(a).localeCompare(day(b)) || a.id - b.id)
      .slice(0, due.limit)
      .map((t) => Transfer.rehydrate(t));
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
