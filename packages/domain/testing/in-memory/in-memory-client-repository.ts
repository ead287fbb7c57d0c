import {
  Client,
  ConcurrentModificationError,
  type ClientListFilter,
  type ClientQueries,
  type ClientRepository,
  type ClientSnapshot,
  type NewClient,
  type Page,
  type PageRequest,
} from '../../src';
import { nextId, presentIn, saveVersioned, type TablesRef, type TablesSource } from './in-memory-tables';
import { matchesCommon, pageOf } from './in-memory-paging';

const identityOf = (c: NewClient): string => [c.customerId, c.documentType, c.taxId, c.branchExternalCode ?? ''].join('|');

export class InMemoryClientRepository implements ClientRepository {
  constructor(private readonly ref: TablesRef) {}

  async getForUpdate(id: number): Promise<Client | undefined> {
    const found = this.ref.tables.clients.get(id);
    return found && Client.rehydrate(found);
  }

  async getMany(ids: readonly number[]): Promise<Client[]> {
    return presentIn(this.ref.tables.clients, ids).map((s) => Client.rehydrate(s));
  }

  async insertIfAbsent(client: NewClient): Promise<{ client: Client; created: boolean }> {
    const key = identityOf(client);
    const existing = [...this.ref.tables.clients.values()].find((c) => identityOf(c) === key);
    if (existing) return { client: Client.rehydrate(existing), created: false };
    const stored: ClientSnapshot = { ...client, id: nextId(this.ref.tables, 'client') };
    this.ref.tables.clients.set(stored.id, stored);
    return { client: Client.rehydrate(stored), created: true };
  }

  async update(client: Client): Promise<void> {
    const next = client.toSnapshot();
    saveVersioned(this.ref.tables.clients, next, () => new ConcurrentModificationError('client', next.id));
  }
}

export class InMemoryClientQueries implements ClientQueries {
  constructor(private readonly source: TablesSource) {}

  async get(id: number): Promise<Client | undefined> {
    const found = this.source.visibleTables().clients.get(id);
    return found && Client.rehydrate(found);
  }

  async list(filter: ClientListFilter, page: PageRequest): Promise<Page<Client>> {
    const rows = [...this.source.visibleTables().clients.values()].filter(
      (c) =>
        c.customerId === filter.customerId &&
        matchesCommon(c, filter) &&
        (filter.taxId === undefined || c.taxId === filter.taxId) &&
        (filter.documentType === undefined || c.documentType === filter.documentType) &&
        (filter.branchExternalCode === undefined || c.branchExternalCode === filter.branchExternalCode) &&
        (filter.externalId === undefined || c.externalId === filter.externalId),
    );
    return pageOf(rows, page, (row) => Client.rehydrate(row));
  }
}
