import type { Knex } from 'knex';
import {
  Associate,
  ConcurrentModificationError,
  MAX_SUPERVISOR_DEPTH,
  type AssociateListFilter,
  type AssociateQueries,
  type AssociateRepository,
  type AssociateStatus,
  type NewAssociate,
  type Page,
  type PageRequest,
} from '@rcs/domain';
import { maintainedTotal, type CountedList } from './list-counts';
import { applyCommonFilter, fetchPage } from './paging';
import { lockedForChange } from './row-locks';
import { rowsByIds } from './rows-by-ids';

interface AssociateRow {
  id: string;
  customer_id: string;
  type: string;
  name: string;
  last_name: string;
  tax_id: string;
  document_number: string;
  email: string;
  phone: string;
  address: string | null;
  parent_associate_id: string | null;
  status: AssociateStatus;
  creation_date: Date;
  modification_date: Date;
  version: number;
}

const toAssociate = (row: AssociateRow): Associate =>
  Associate.rehydrate({
    id: Number(row.id),
    customerId: Number(row.customer_id),
    type: row.type,
    name: row.name,
    lastName: row.last_name,
    taxId: row.tax_id,
    documentNumber: row.document_number,
    email: row.email,
    phone: row.phone,
    address: row.address,
    parentAssociateId: row.parent_associate_id === null ? null : Number(row.parent_associate_id),
    status: row.status,
    creationDate: row.creation_date,
    modificationDate: row.modification_date,
    version: row.version,
  });

const toRow = (a: NewAssociate) => ({
  customer_id: a.customerId,
  type: a.type,
  name: a.name,
  last_name: a.lastName,
  tax_id: a.taxId,
  document_number: a.documentNumber,
  email: a.email,
  phone: a.phone,
  address: a.address,
  parent_associate_id: a.parentAssociateId,
  status: a.status,
  creation_date: a.creationDate,
  modification_date: a.modificationDate,
  version: a.version,
});

export class KnexAssociateRepository implements AssociateRepository {
  constructor(private readonly trx: Knex.Transaction) {}

  async getForUpdate(id: number): Promise<Associate | undefined> {
    const row = await lockedForChange(this.trx('associates').where({ id })).first<AssociateRow | undefined>();
    return row && toAssociate(row);
  }

  async getForShare(id: number): Promise<Associate | undefined> {
    const row = await this.trx('associates').where({ id }).forShare().first<AssociateRow | undefined>();
    return row && toAssociate(row);
  }

  async getManyForShare(ids: readonly number[]): Promise<Associate[]> {
    return (await rowsByIds<AssociateRow>(this.trx, 'associates', ids, (query) => query.forShare())).map(toAssociate);
  }

  async supervisorChain(id: number): Promise<number[]> {
    // The depth bound ends a walk up a loop: one stored before loops were refused, or made by three edits at once.
    const { rows } = await this.trx.raw<{ rows: Array<{ id: string }> }>(
      `WITH RECURSIVE chain(id, parent_associate_id, depth) AS (
         SELECT id, parent_associate_id, 0 FROM associates WHERE id = ?
         UNION ALL
         SELECT a.id, a.parent_associate_id, chain.depth + 1 FROM associates a JOIN chain ON a.id = chain.parent_associate_id WHERE chain.depth < ?
       )
       SELECT id FROM chain ORDER BY depth`,
      [id, MAX_SUPERVISOR_DEPTH],
    );
    return [...new Set<number>(rows.map((row) => Number(row.id)))];
  }

  async insertIfAbsent(associate: NewAssociate): Promise<{ associate: Associate; created: boolean }> {
    const [inserted] = await this.trx('associates').insert(toRow(associate)).onConflict(['customer_id', 'tax_id']).ignore().returning<AssociateRow[]>('*');
    if (inserted) return { associate: toAssociate(inserted), created: true };
    const existing = await this.trx('associates').where({ customer_id: associate.customerId, tax_id: associate.taxId }).first<AssociateRow | undefined>();
    if (!existing) throw new Error('associate taxId conflicted but no row was found');
    return { associate: toAssociate(existing), created: false };
  }

  async update(associate: Associate): Promise<void> {
    const next = associate.toSnapshot();
    const changed = await this.trx('associates')
      .where({ id: next.id, version: next.version - 1 })
      .update(toRow(next));
    if (changed !== 1) throw new ConcurrentModificationError('associate', next.id);
  }
}

const COUNTED: CountedList<AssociateListFilter> = { list: 'associates', scopes: {} };

export class KnexAssociateQueries implements AssociateQueries {
  /** `db` gives what a read runs on: the pool, or the transaction the storage ports are bound to. */
  constructor(private readonly db: () => Knex) {}

  async get(id: number): Promise<Associate | undefined> {
    const row = await this.db()('associates').where({ id }).first<AssociateRow | undefined>();
    return row && toAssociate(row);
  }

  list(filter: AssociateListFilter, page: PageRequest): Promise<Page<Associate>> {
    const query = applyCommonFilter(this.db()('associates').where('customer_id', filter.customerId), filter, 'associates');
    if (filter.status !== undefined) query.where('status', filter.status);
    if (filter.taxId !== undefined) query.where('tax_id', filter.taxId);
    if (filter.documentNumber !== undefined) query.where('document_number', filter.documentNumber);
    if (filter.type !== undefined) query.where('type', filter.type);
    if (filter.parentAssociateId !== undefined) query.where('parent_associate_id', filter.parentAssociateId);
    return fetchPage(query, 'associates', page, toAssociate, { total: maintainedTotal(this.db(), COUNTED, filter) });
  }

  listSharingAccountsWith(customerId: number, clientId: number, page: PageRequest): Promise<Page<Associate>> {
    const shared = this.db()('receivable_accounts').select('associate_id').where({ customer_id: customerId, client_id: clientId }).whereNotNull('associate_id');
    return fetchPage(this.db()('associates').where('customer_id', customerId).whereIn('id', shared), 'associates', page, toAssociate);
  }
}
