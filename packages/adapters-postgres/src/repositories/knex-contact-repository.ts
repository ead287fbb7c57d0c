import type { Knex } from 'knex';
import {
  ConcurrentModificationError,
  Contact,
  DuplicatedContactError,
  type ContactListFilter,
  type ContactQueries,
  type ContactRepository,
  type NewContact,
  type Page,
  type PageRequest,
} from '@rcs/domain';
import { maintainedTotal, type CountedList } from './list-counts';
import { fetchPage } from './paging';
import { violatedConstraint } from './pg-errors';
import { lockedForChange } from './row-locks';

interface ContactRow {
  id: string;
  customer_id: string;
  name: string;
  tax_id: string;
  cbu_cvu: string;
  alias: string | null;
  entity: string;
  creation_date: Date;
  modification_date: Date;
  version: number;
}

const toContact = (row: ContactRow): Contact =>
  Contact.rehydrate({
    id: Number(row.id),
    customerId: Number(row.customer_id),
    name: row.name,
    taxId: row.tax_id,
    cbuCvu: row.cbu_cvu,
    alias: row.alias,
    entity: row.entity,
    creationDate: row.creation_date,
    modificationDate: row.modification_date,
    version: row.version,
  });

const toRow = (c: NewContact) => ({
  customer_id: c.customerId,
  name: c.name,
  tax_id: c.taxId,
  cbu_cvu: c.cbuCvu,
  alias: c.alias,
  entity: c.entity,
  creation_date: c.creationDate,
  modification_date: c.modificationDate,
  version: c.version,
});

/** The unique indexes of migration 009 are what keeps two racing saves from sharing an account or an alias. */
function duplicateOf(error: unknown): DuplicatedContactError | undefined {
  const constraint = violatedConstraint(error);
  if (constraint === 'contacts_cbu_cvu') return new DuplicatedContactError('cbuCvu');
  if (constraint === 'contacts_alias') return new DuplicatedContactError('alias');
  return undefined;
}

const rethrow = (error: unknown): never => {
  throw duplicateOf(error) ?? error;
};

export class KnexContactRepository implements ContactRepository {
  constructor(private readonly trx: Knex.Transaction) {}

  async get(id: number): Promise<Contact | undefined> {
    const row = await this.trx('contacts').where({ id }).first<ContactRow | undefined>();
    return row && toContact(row);
  }

  async getForUpdate(id: number): Promise<Contact | undefined> {
    const row = await lockedForChange(this.trx('contacts').where({ id })).first<ContactRow | undefined>();
    return row && toContact(row);
  }

  // A taken CBU/CVU or alias skips the write instead of failing it, so the transaction can still read who holds it.
  async insert(contact: NewContact): Promise<Contact> {
    const [row] = await this.trx('contacts').insert(toRow(contact)).onConflict().ignore().returning<ContactRow[]>('*');
    if (row) return toContact(row);
    const holder = await this.holderOf(contact);
    if (holder) throw holder;
    // The holder the insert met was deleted since: the insert may now succeed.
    return this.insert(contact);
  }

  async update(contact: Contact): Promise<void> {
    const next = contact.toSnapshot();
    const changed = await this.trx('contacts')
      .where({ id: next.id, version: next.version - 1 })
      .whereNotExists(this.taken(next))
      .update(toRow(next))
      .catch(rethrow);
    if (changed !== 1) throw (await this.holderOf(next)) ?? new ConcurrentModificationError('contact', next.id);
  }

  async delete(contact: Contact): Promise<void> {
    await this.trx('contacts').where({ id: contact.id }).delete();
  }

  /** The customer's other recipients with this CBU/CVU or alias (the unique indexes of migration 009), account first. */
  private taken(c: NewContact & { id?: number }): Knex.QueryBuilder {
    const query = this.trx('contacts as other')
      .where('other.customer_id', c.customerId)
      .where((match) => {
        match.where('other.cbu_cvu', c.cbuCvu);
        if (c.alias !== null) match.orWhereRaw('lower(other.alias) = lower(?)', [c.alias]);
      })
      .orderByRaw('other.cbu_cvu = ? DESC', [c.cbuCvu]);
    return c.id === undefined ? query : query.whereNot('other.id', c.id);
  }

  private async holderOf(c: NewContact & { id?: number }): Promise<DuplicatedContactError | undefined> {
    const holder = await this.taken(c).first<Pick<ContactRow, 'id' | 'cbu_cvu'> | undefined>('other.id', 'other.cbu_cvu');
    return holder && new DuplicatedContactError(holder.cbu_cvu === c.cbuCvu ? 'cbuCvu' : 'alias', Number(holder.id));
  }
}

/** By customer (migration 018); taxId and alias match a few recipients, counted from their index. */
const COUNTED: CountedList<ContactListFilter> = { list: 'contacts', scopes: {}, status: null };

export class KnexContactQueries implements ContactQueries {
  /** `db` gives what a read runs on: the pool, or the transaction the storage ports are bound to. */
  constructor(private readonly db: () => Knex) {}

  async get(id: number): Promise<Contact | undefined> {
    const row = await this.db()('contacts').where({ id }).first<ContactRow | undefined>();
    return row && toContact(row);
  }

  list(filter: ContactListFilter, page: PageRequest): Promise<Page<Contact>> {
    const query = this.db()('contacts').where('customer_id', filter.customerId);
    if (filter.taxId !== undefined) query.where('tax_id', filter.taxId);
    // lower(alias) is what the contacts_alias index holds.
    if (filter.alias !== undefined) query.whereRaw('lower(alias) = lower(?)', [filter.alias]);
    return fetchPage(query, 'contacts', page, toContact, { total: maintainedTotal(this.db(), COUNTED, filter) });
  }
}
