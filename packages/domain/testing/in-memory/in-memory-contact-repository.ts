import {
  ConcurrentModificationError,
  Contact,
  DuplicatedContactError,
  type ContactListFilter,
  type ContactQueries,
  type ContactRepository,
  type ContactSnapshot,
  type NewContact,
  type Page,
  type PageRequest,
} from '../../src';
import { nextId, saveVersioned, type TablesRef, type TablesSource } from './in-memory-tables';
import { pageOf } from './in-memory-paging';

const sameAlias = (a: string | null, b: string | null) => a !== null && b !== null && a.toLowerCase() === b.toLowerCase();

export class InMemoryContactRepository implements ContactRepository {
  constructor(private readonly ref: TablesRef) {}

  async get(id: number): Promise<Contact | undefined> {
    const found = this.ref.tables.contacts.get(id);
    return found && Contact.rehydrate(found);
  }

  getForUpdate(id: number): Promise<Contact | undefined> {
    return this.get(id);
  }

  async insert(contact: NewContact): Promise<Contact> {
    const stored: ContactSnapshot = { ...contact, id: nextId(this.ref.tables, 'contact') };
    this.assertUnique(stored);
    this.ref.tables.contacts.set(stored.id, stored);
    return Contact.rehydrate(stored);
  }

  async update(contact: Contact): Promise<void> {
    const next = contact.toSnapshot();
    this.assertUnique(next);
    saveVersioned(this.ref.tables.contacts, next, () => new ConcurrentModificationError('contact', next.id));
  }

  async delete(contact: Contact): Promise<void> {
    this.ref.tables.contacts.delete(contact.id);
  }

  /** What the SQL unique indexes enforce: one CBU/CVU and one alias (any case) per customer. */
  private assertUnique(c: ContactSnapshot): void {
    const others = [...this.ref.tables.contacts.values()].filter((o) => o.customerId === c.customerId && o.id !== c.id);
    const sameAccount = others.find((o) => o.cbuCvu === c.cbuCvu);
    if (sameAccount) throw new DuplicatedContactError('cbuCvu', sameAccount.id);
    const sameName = others.find((o) => sameAlias(o.alias, c.alias));
    if (sameName) throw new DuplicatedContactError('alias', sameName.id);
  }
}

export class InMemoryContactQueries implements ContactQueries {
  constructor(private readonly source: TablesSource) {}

  async get(id: number): Promise<Contact | undefined> {
    const found = this.source.visibleTables().contacts.get(id);
    return found && Contact.rehydrate(found);
  }

  async list(filter: ContactListFilter, page: PageRequest): Promise<Page<Contact>> {
    const rows = [...this.source.visibleTables().contacts.values()].filter(
      (c) =>
        c.customerId === filter.customerId &&
        (filter.taxId === undefined || c.taxId === filter.taxId) &&
        (filter.alias === undefined || sameAlias(c.alias, filter.alias)),
    );
    return pageOf(rows, page, (row) => Contact.rehydrate(row));
  }
}
