import type { Knex } from 'knex';
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
} from '@rcs/domain';
import { maintainedTotal, type CountedList } from './list-counts';
import { applyCommonFilter, fetchPage } from './paging';
import { lockedForChange } from './row-locks';
import { rowsByIds } from './rows-by-ids';

interface ClientRow {
  id: string;
  customer_id: string;
  business_name: string;
  tax_id: string;
  document_type: ClientSnapshot['documentType'];
  email: string | null;
  branch_external_code: string | null;
  branch_description: string | null;
  branch_reference_address: string | null;
  external_id: string | null;
  creation_date: Date;
  modification_date: Date;
  version: number;
}

const toClient = (row: ClientRow): Client =>
  Client.rehydrate({
    id: Number(row.id),
    customerId: Number(row.customer_id),
    businessName: row.business_name,
    taxId: row.tax_id,
    documentType: row.document_type,
    email: row.email,
    branchExternalCode: row.branch_external_code,
    branchDescription: row.branch_description,
    branchReferenceAddress: row.branch_reference_address,
    externalId: row.external_id,
    creationDate: row.creation_date,
    modificationDate: row.modification_date,
    version: row.version,
  });

const toRow = (c: NewClient): Omit<ClientRow, 'id' | 'customer_id'> & { customer_id: number } => ({
  customer_id: c.customerId,
  business_name: c.businessName,
  tax_id: c.taxId,
  document_type: c.documentType,
  email: c.email,
  branch_external_code: c.branchExternalCode,
  branch_description: c.branchDescription,
  branch_reference_address: c.branchReferenceAddress,
  external_id: c.externalId,
  creation_date: c.creationDate,
  modification_date: c.modificationDate,
  version: c.version,
});

export class KnexClientRepository implements ClientRepository {
  constructor(private readonly trx: Knex.Transaction) {}

  async getForUpdate(id: number): Promise<Client | undefined> {
    const row = await lockedForChange(this.trx('clients').where({ id })).first<ClientRow | undefined>();
    return row && toClient(row);
  }

  async getMany(ids: readonly number[]): Promise<Client[]> {
    return (await rowsByIds<ClientRow>(this.trx, 'clients', ids)).map(toClient);
  }

  async insertIfAbsent(client: NewClient): Promise<{ client: Client; created: boolean }> {
    // ON CONFLICT waits for a concurrent insert of the same identity to finish, then yields to it.
    const [inserted] = await this.trx('clients').insert(toRow(client)).onConflict().ignore().returning<ClientRow[]>('*');
    if (inserted) return { client: toClient(inserted), created: true };
    const existing = await this.trx('clients')
      .where({ customer_id: client.customerId, document_type: client.documentType, tax_id: client.taxId })
      .whereRaw(`COALESCE(branch_external_code, '') = ?`, [client.branchExternalCode ?? ''])
      .first<ClientRow | undefined>();
    if (!existing) throw new Error('client identity conflicted but no row was found');
    return { client: toClient(existing), created: false };
  }

  async update(client: Client): Promise<void> {
    const next = client.toSnapshot();
    const changed = await this.trx('clients')
      .where({ id: next.id, version: next.version - 1 })
      .update(toRow(next));
    if (changed !== 1) throw new ConcurrentModificationError('client', next.id);
  }
}

const COUNTED: CountedList<ClientListFilter> = { list: 'clients', scopes: {}, status: null };

export class KnexClientQueries implements ClientQueries {
  /** `db` gives what a read runs on: the pool, or the transaction the storage ports are bound to. */
  constructor(private readonly db: () => Knex) {}

  async get(id: number): Promise<Client | undefined> {
    const row = await this.db()('clients').where({ id }).first<ClientRow | undefined>();
    return row && toClient(row);
  }

  list(filter: ClientListFilter, page: PageRequest): Promise<Page<Client>> {
    const query = applyCommonFilter(this.db()('clients').where('customer_id', filter.customerId), filter, 'clients');
    if (filter.taxId !== undefined) query.where('tax_id', filter.taxId);
    if (filter.documentType !== undefined) query.where('document_type', filter.documentType);
    if (filter.branchExternalCode !== undefined) query.where('branch_external_code', filter.branchExternalCode);
    if (filter.externalId !== undefined) query.where('external_id', filter.externalId);
    return fetchPage(query, 'clients', page, toClient, { total: maintainedTotal(this.db(), COUNTED, filter) });
  }
}
