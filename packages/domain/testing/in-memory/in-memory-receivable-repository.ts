import {
  assertDistinct,
  ConcurrentModificationError,
  duplicatedLegalNumber,
  Receivable,
  type NewReceivable,
  type Page,
  type PageRequest,
  type ReceivableFamily,
  type ReceivableListFilter,
  type ReceivableQueries,
  type ReceivableRepository,
  type ReceivableSnapshot,
} from '../../src';
import { nextId, presentIn, saveVersioned, type TablesRef, type TablesSource } from './in-memory-tables';
import { matchesCommon, pageOf } from './in-memory-paging';

export class InMemoryReceivableRepository implements ReceivableRepository {
  constructor(private readonly ref: TablesRef) {}

  async newId(): Promise<number> {
    return nextId(this.ref.tables, 'receivable');
  }

  async insert(draft: NewReceivable, id?: number): Promise<Receivable> {
    this.assertLegalNumberFree(draft.customerId, draft.legalNumber, 0);
    const stored: ReceivableSnapshot = { ...draft, id: id ?? nextId(this.ref.tables, 'receivable'), modificationDate: draft.creationDate, version: 1 };
    this.ref.tables.receivables.set(stored.id, stored);
    return Receivable.rehydrate(stored);
  }

  async insertMany(drafts: readonly NewReceivable[]): Promise<Receivable[]> {
    // All or nothing, as one statement: every clash is found before anything is stored.
    const numbers = drafts.map((d) => d.legalNumber).filter((n) => n !== null);
    const repeated = numbers.find((n, i) => numbers.indexOf(n) !== i);
    if (repeated !== undefined) throw duplicatedLegalNumber(repeated);
    for (const draft of drafts) this.assertLegalNumberFree(draft.customerId, draft.legalNumber, 0);
    const stored: Receivable[] = [];
    for (const draft of drafts) stored.push(await this.insert(draft));
    return stored;
  }

  async legalNumbersInUse(customerId: number, legalNumbers: readonly string[]): Promise<Set<string>> {
    const wanted = new Set(legalNumbers);
    const rows = [...this.ref.tables.receivables.values()];
    return new Set(rows.filter((r) => r.customerId === customerId && r.legalNumber !== null && wanted.has(r.legalNumber)).map((r) => r.legalNumber!));
  }

  async familiesForUpdate(ids: readonly number[]): Promise<ReceivableFamily[]> {
    const families: ReceivableFamily[] = [];
    for (const parent of presentIn(this.ref.tables.receivables, ids)) {
      families.push({ parent: Receivable.rehydrate(parent), activeChildren: await this.activeChildren(parent.id) });
    }
    return families;
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

  async updateMany(receivables: readonly Receivable[]): Promise<void> {
    assertDistinct(receivables);
    for (const receivable of receivables) {
      const next = receivable.toSnapshot();
      if (this.ref.tables.receivables.get(next.id)?.legalNumber !== next.legalNumber) throw new ConcurrentModificationError('receivable', next.id);
      await this.update(receivable);
    }
  }

  async dueForExpiry(today: string, limit: number, customerId?: number): Promise<Receivable[]> {
    return [...this.ref.tables.receivables.values()]
      .filter((r) => r.status === 'PENDING' && r.dueDate !== null && r.dueDate < today && (customerId === undefined || r.customerId === customerId))
      .sort((a, b) => a.id - b.id)
      .slice(0, limit)
      .map((row) => Receivable.rehydrate(row));
  }

  private assertLegalNumberFree(customerId: number, legalNumber: string | null, selfId: number): void {
    if (legalNumber === null) return;
    const clash = [...this.ref.tables.receivables.values()].some((r) => r.customerId === customerId && r.legalNumber === legalNumber && r.id !== selfId);
    if (clash) throw duplicatedLegalNumber(legalNumber);
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
