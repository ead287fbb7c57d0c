import {
  Associate,
  ConcurrentModificationError,
  MAX_SUPERVISOR_DEPTH,
  type AssociateListFilter,
  type AssociateQueries,
  type AssociateRepository,
  type AssociateSnapshot,
  type NewAssociate,
  type Page,
  type PageRequest,
} from '../../src';
import { nextId, presentIn, saveVersioned, type TablesRef, type TablesSource } from './in-memory-tables';
import { matchesCommon, pageOf } from './in-memory-paging';

export class InMemoryAssociateRepository implements AssociateRepository {
  constructor(private readonly ref: TablesRef) {}

  async getForUpdate(id: number): Promise<Associate | undefined> {
    const found = this.ref.tables.associates.get(id);
    return found && Associate.rehydrate(found);
  }

  getForShare(id: number): Promise<Associate | undefined> {
    return this.getForUpdate(id);
  }

  async getManyForShare(ids: readonly number[]): Promise<Associate[]> {
    return presentIn(this.ref.tables.associates, ids).map((s) => Associate.rehydrate(s));
  }

  async supervisorChain(id: number): Promise<number[]> {
    const chain: number[] = [];
    for (let next = this.ref.tables.associates.get(id); next && !chain.includes(next.id) && chain.length <= MAX_SUPERVISOR_DEPTH;) {
      chain.push(next.id);
      next = next.parentAssociateId === null ? undefined : this.ref.tables.associates.get(next.parentAssociateId);
    }
    return chain;
  }

  async insertIfAbsent(associate: NewAssociate): Promise<{ associate: Associate; created: boolean }> {
    const existing = [...this.ref.tables.associates.values()].find((a) => a.customerId === associate.customerId && a.taxId === associate.taxId);
    if (existing) return { associate: Associate.rehydrate(existing), created: false };
    const stored: AssociateSnapshot = { ...associate, id: nextId(this.ref.tables, 'associate') };
    this.ref.tables.associates.set(stored.id, stored);
    return { associate: Associate.rehydrate(stored), created: true };
  }

  async update(associate: Associate): Promise<void> {
    const next = associate.toSnapshot();
    saveVersioned(this.ref.tables.associates, next, () => new ConcurrentModificationError('associate', next.id));
  }
}

export class InMemoryAssociateQueries implements AssociateQueries {
  constructor(private readonly source: TablesSource) {}

  async get(id: number): Promise<Associate | undefined> {
    const found = this.source.visibleTables().associates.get(id);
    return found && Associate.rehydrate(found);
  }

  async list(filter: AssociateListFilter, page: PageRequest): Promise<Page<Associate>> {
    const rows = [...this.source.visibleTables().associates.values()].filter(
      (a) =>
        a.customerId === filter.customerId &&
        matchesCommon(a, filter) &&
        (filter.taxId === undefined || a.taxId === filter.taxId) &&
        (filter.documentNumber === undefined || a.documentNumber === filter.documentNumber) &&
        (filter.type === undefined || a.type === filter.type) &&
        (filter.parentAssociateId === undefined || a.parentAssociateId === filter.parentAssociateId) &&
        (filter.status === undefined || a.status === filter.status),
    );
    return pageOf(rows, page, (row) => Associate.rehydrate(row));
  }

  async listSharingAccountsWith(customerId: number, clientId: number, page: PageRequest): Promise<Page<Associate>> {
    const shared = new Set(
      [...this.source.visibleTables().receivableAccounts.values()]
        .filter((a) => a.customerId === customerId && a.clientId === clientId && a.associateId !== null)
        .map((a) => a.associateId),
    );
    return pageOf(
      [...this.source.visibleTables().associates.values()].filter((a) => shared.has(a.id)),
      page,
      (row) => Associate.rehydrate(row),
    );
  }
}
