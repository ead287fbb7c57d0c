import {
  ConcurrentModificationError,
  DomainError,
  isPositive,
  Receivable,
  type NewReceivable,
  type Page,
  type PageRequest,
  type ReceivableListFilter,
  type ReceivableQueries,
  type ReceivableRepository,
  type ReceivableSnapshot,
} from '../../src';
import { nextId, saveVersioned, type TablesRef, type TablesSource } from './in-memory-tables';
import { matchesCommon, pageOf } from './in-memory-paging';

const duplicated = (legalNumber: string) => new DomainError('duplicated-legal-number', `legalNumber ${legalNumber} is already used`);

export class InMemoryReceivableRepository implements ReceivableRepository {
  constructor(private readonly ref: TablesRef) {}

  async insert(draft: NewReceivable): Promise<Receivable> {
    this.assertLegalNumberFree(draft.customerId, draft.legalNumber, 0);
    const stored: ReceivableSnapshot = { ...draft, id: nextId(this.ref.tables, 'receivable'), modificationDate: draft.creationDate, version: 1 };
    this.ref.tables.receivables.set(stored.id, stored);
    return Receivable.rehydrate(stored);
  }

  async getForUpdate(id: number): Promise<Receivable | undefined> {
    const found = this.ref.tables.receivables.get(id);
    return found && Receivable.rehydrate(found);
  }

  async activeChildren(parentId: number): Promise<Receivable[]> {
    return [...this.ref.tables.receivables.values()]
      .filter((r) => r.parentReceivableId === parentId && r.status !== 'DISABLED')
      .sort((a, b) => a.id - b.id)
      .map((row) => Receivable.rehydrate(row));
  }

  async update(receivable: Receivable): Promise<void> {
    const next = receivable.toSnapshot();
    this.assertLegalNumberFree(next.customerId, next.legalNumber, next.id);
    saveVersioned(this.ref.tables.receivables, next, () => new ConcurrentModificationError('receivable', next.id));
  }

  async dueForExpiry(today: string, limit: number, customerId?: number): Promise<Receivable[]> {
    return [...this.ref.tables.receivables.values()]
      .filter(
        (r) =>
          r.status === 'PENDING' &&
          isPositive(r.receivableType) &&
          r.dueDate !== null &&
          r.dueDate < today &&
          (customerId === undefined || r.customerId === customerId),
      )
      .sort((a, b) => a.id - b.id)
      .slice(0, limit)
      .map((row) => Receivable.rehydrate(row));
  }

  private assertLegalNumberFree(customerId: number, legalNumber: string | null, selfId: number): void {
    if (legalNumber === null) return;
    const clash = [...this.ref.tables.receivables.values()].some((r) => r.customerId === customerId && r.legalNumber === legalNumber && r.id !== selfId);
    if (clash) throw duplicated(legalNumber);
  }
}

export class InMemoryReceivableQueries implements ReceivableQueries {
  constructor(private readonly source: TablesSource) {}

  async get(id: number): Promise<Receivable | undefined> {
    const found = this.source.visibleTables().receivables.get(id);
    return found && Receivable.rehydrate(found);
  }

  async list(filter: ReceivableListFilter, page: PageRequest): Promise<Page<Receivable>> {
    const f = filter;
    const within = (value: string | null, from?: string, to?: string) =>
      (from === undefined || (value !== null && value >= from)) && (to === undefined || (value !== null && value <= to));
    const rows = [...this.source.visibleTables().receivables.values()].filter(
      (r) =>
        r.customerId === f.customerId &&
        matchesCommon(r, f) &&
        (f.receivableAccountId === undefined || r.receivableAccountId === f.receivableAccountId) &&
        (f.clientId === undefined || r.clientId === f.clientId) &&
        (f.associateId === undefined || r.associateId === f.associateId) &&
        (f.status === undefined || r.status === f.status) &&
        (f.receivableType === undefined || r.receivableType === f.receivableType) &&
        within(r.dueDate, f.fromDueDate, f.toDueDate) &&
        within(r.issueDate, f.fromIssueDate, f.toIssueDate) &&
        (f.legalNumber === undefined || r.legalNumber === f.legalNumber) &&
        (f.externalRoutingCode === undefined || r.externalRoutingCode === f.externalRoutingCode) &&
        (f.parentReceivableId === undefined || r.parentReceivableId === f.parentReceivableId) &&
        (f.routeSettlementId === undefined || r.routeSettlementId === f.routeSettlementId) &&
        (f.minAmountMinor === undefined || r.amountMinor >= f.minAmountMinor) &&
        (f.maxAmountMinor === undefined || r.amountMinor <= f.maxAmountMinor),
    );
    return pageOf(rows, page, (row) => Receivable.rehydrate(row));
  }
}
