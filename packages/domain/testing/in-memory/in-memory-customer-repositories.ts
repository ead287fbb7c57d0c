import {
  ConcurrentModificationError,
  Credential,
  type CredentialRepository,
  type CredentialSnapshot,
  type CredentialSummary,
  type Customer,
  type CustomerQueries,
  type CustomerRepository,
  type NewCredential,
  type NewCustomer,
} from '../../src';
import { nextId, type TablesRef, type TablesSource } from './in-memory-tables';

export class InMemoryCustomerRepository implements CustomerRepository {
  constructor(private readonly ref: TablesRef) {}

  async get(id: number): Promise<Customer | undefined> {
    return this.ref.tables.customers.get(id);
  }

  async insertIfAbsent(customer: NewCustomer): Promise<{ customer: Customer; created: boolean }> {
    const existing = [...this.ref.tables.customers.values()].find((c) => c.name === customer.name);
    if (existing) return { customer: existing, created: false };
    const stored = { ...customer, id: nextId(this.ref.tables, 'customer') };
    this.ref.tables.customers.set(stored.id, stored);
    return { customer: stored, created: true };
  }

  async aliasTemplates(): Promise<string[]> {
    return [...new Set([...this.ref.tables.customers.values()].map((c) => c.aliasTemplate))];
  }
}

export class InMemoryCredentialRepository implements CredentialRepository {
  constructor(private readonly ref: TablesRef) {}

  async findByClientId(clientId: string): Promise<CredentialSnapshot | undefined> {
    return [...this.ref.tables.credentials.values()].find((c) => c.clientId === clientId);
  }

  async getForUpdate(clientId: string): Promise<Credential | undefined> {
    const found = await this.findByClientId(clientId);
    return found && Credential.rehydrate(found);
  }

  async insertIfAbsent(credential: NewCredential): Promise<{ credential: CredentialSnapshot; created: boolean }> {
    const existing = await this.findByClientId(credential.clientId);
    if (existing) return { credential: existing, created: false };
    const stored = { ...credential, scopes: [...credential.scopes], id: nextId(this.ref.tables, 'credential') };
    this.ref.tables.credentials.set(stored.id, stored);
    return { credential: stored, created: true };
  }

  async replaceSecretHash(id: number, secretHash: string): Promise<void> {
    const found = this.ref.tables.credentials.get(id);
    if (found) this.ref.tables.credentials.set(id, { ...found, secretHash });
  }

  async update(credential: Credential): Promise<void> {
    const { id, status } = credential.toSnapshot();
    const stored = this.ref.tables.credentials.get(id);
    if (stored?.status !== credential.storedStatus) throw new ConcurrentModificationError('credential', id);
    this.ref.tables.credentials.set(id, { ...stored, status });
  }
}

export class InMemoryCustomerQueries implements CustomerQueries {
  constructor(private readonly source: TablesSource) {}

  async get(id: number): Promise<Customer | undefined> {
    return this.source.visibleTables().customers.get(id);
  }

  async list(): Promise<Customer[]> {
    return [...this.source.visibleTables().customers.values()].sort((a, b) => a.id - b.id);
  }

  async credentialsOf(customerId: number): Promise<CredentialSummary[]> {
    return [...this.source.visibleTables().credentials.values()]
      .filter((c) => c.customerId === customerId)
      .sort((a, b) => a.id - b.id)
      .map(({ secretHash: _hidden, ...summary }) => summary);
  }
}
