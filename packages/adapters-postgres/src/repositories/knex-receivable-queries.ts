import type { Knex } from 'knex';
import { RECEIVABLE_STATUSES, type Page, type PageRequest, type Receivable, type ReceivableListFilter, type ReceivableQueries } from '@rcs/domain';
import { maintainedTotal, type CountedList } from './list-counts';
import { applyCommonFilter, fetchPage, rowCount } from './paging';
import { namedByText } from './prepared';
import { toReceivable, type ReceivableRow } from './receivable-rows';

/** Column and filter member, for the exact-match filters. */
const EXACT: ReadonlyArray<[string, keyof ReceivableListFilter]> = [
  ['receivable_account_id', 'receivableAccountId'],
  ['client_id', 'clientId'],
  ['associate_id', 'associateId'],
  ['status', 'status'],
  ['receivable_type', 'receivableType'],
  ['legal_number', 'legalNumber'],
  ['external_routing_code', 'externalRoutingCode'],
  ['parent_receivable_id', 'parentReceivableId'],
  ['route_settlement_id', 'routeSettlementId'],
];

const COUNTED: CountedList<ReceivableListFilter> = {
  list: 'receivables',
  scopes: { receivableAccountId: 'account', clientId: 'client', associateId: 'associate' },
  windows: [
    { from: 'fromDueDate', to: 'toDueDate', column: 'due_date', scope: 'due_day', unit: 'day' },
    { from: 'fromDate', to: 'toDate', column: 'creation_date', scope: 'created_hour', unit: 'hour' },
  ],
};

/**
 * A list without status is read as one ordered range per status, merged: the lists' indexes lead with the scope
 * and the status (migration 016), and serve the list with and without status alike.
 */
const BY_STATUS = { column: 'status', values: RECEIVABLE_STATUSES };

/** Column, comparison and filter member, for the range filters. */
const RANGES: ReadonlyArray<[string, '>=' | '<=', keyof ReceivableListFilter]> = [
  ['due_date', '>=', 'fromDueDate'],
  ['due_date', '<=', 'toDueDate'],
  ['issue_date', '>=', 'fromIssueDate'],
  ['issue_date', '<=', 'toIssueDate'],
  ['amount_minor', '>=', 'minAmountMinor'],
  ['amount_minor', '<=', 'maxAmountMinor'],
];
/** A range matching at least 1 / DENSE_SHARE of the list's rows is walked by status branches (see ranged). */
const DENSE_SHARE = 10;

export class KnexReceivableQueries implements ReceivableQueries {
  /** `db` gives what a read runs on: the pool, or the transaction the storage ports are bound to. */
  constructor(private readonly db: () => Knex) {}

  async get(id: number): Promise<Receivable | undefined> {
    const row = await this.db()('receivables').where({ id }).first<ReceivableRow | undefined>();
    return row && toReceivable(row);
  }

  list(filter: ReceivableListFilter, page: PageRequest): Promise<Page<Receivable>> {
    const db = this.db();
    const query = this.matching(db, filter);
    if (filter.status !== undefined) return fetchPage(query, 'receivables', page, toReceivable, { total: this.total(db, filter) });
    if (!RANGES.some(([, , member]) => filter[member] !== undefined)) {
      return fetchPage(query, 'receivables', page, toReceivable, { total: this.total(db, filter), branches: BY_STATUS });
    }
    return this.ranged(query, filter, page);
  }

  private matching(db: Knex, filter: ReceivableListFilter): Knex.QueryBuilder {
    const query = applyCommonFilter(db('receivables').where('customer_id', filter.customerId), filter, 'receivables');
    for (const [column, member] of EXACT) if (filter[member] !== undefined) query.where(column, filter[member] as string | number);
    // Migration 030's predicate, written out: a generic plan of this named statement, which cannot read it from the
    // type's parameter, uses that index too.
    if (filter.receivableType !== undefined && filter.receivableType !== 'INVOICE') query.whereRaw(`receivable_type <> 'INVOICE'`);
    for (const [column, comparison, member] of RANGES) if (filter[member] !== undefined) query.where(column, comparison, String(filter[member]));
    return query;
  }

  /**
   * The maintained total of `filter`, if it has one. Invoices, most of what a customer holds, are the total of every
   * type less the other types (migration 030's index holds those alone): counted, they read every invoice matching.
   */
  private total(db: Knex, filter: ReceivableListFilter): Knex.QueryBuilder | undefined {
    // A window's edges are counted in the lists' indexes, which lead with the status: by status ranges without one.
    const rows = (of: ReceivableListFilter) => rowCount(this.matching(db, of), 'receivables', of.status === undefined ? BY_STATUS : undefined);
    if (filter.receivableType !== 'INVOICE') return maintainedTotal(db, COUNTED, filter, rows(filter));
    const anyType = { ...filter, receivableType: undefined };
    const all = maintainedTotal(db, COUNTED, anyType, rows(anyType));
    if (all === undefined) return undefined;
    const others = this.matching(db, anyType).whereRaw(`receivable_type <> 'INVOICE'`).count('*');
    return db.queryBuilder().select(db.raw('(?) - (?) AS count', [all, others]));
  }

  /**
   * A range of due date, issue date or amount, without status. Walked by status branches newest first, a status
   * holding nothing in a narrow range was read to its end (a week of due dates: every PENDING and DISABLED row);
   * read through the range's own index, a wide one was read whole and sorted (every row since 2025: ten times the
   * walk). So its matches are counted first (from that index, as its total is, or for the whole customer's due dates
   * from their days' counts) against what the list holds without the range (a maintained count): a range matching at
   * least a tenth of them is walked, a narrower one read.
   */
  private async ranged(query: Knex.QueryBuilder, filter: ReceivableListFilter, page: PageRequest): Promise<Page<Receivable>> {
    const db = this.db();
    const ranges = new Set<string>(RANGES.map(([, , member]) => member));
    const unranged = Object.fromEntries(Object.entries(filter).filter(([member]) => !ranges.has(member)));
    const held = maintainedTotal(db, COUNTED, unranged as ReceivableListFilter);
    const matching = this.total(db, filter) ?? query.clone().clearSelect().count('*');
    const [counts] = await namedByText<{ matching: string; held: string | null }>(
      db.queryBuilder().select({ matching, held: held ?? db.raw('NULL::bigint') }),
      true,
    );
    const dense = counts.held !== null && Number(counts.matching) * DENSE_SHARE >= Number(counts.held);
    // The matches just counted are the page's total: counting them again with the page cost as much once more (a
    // range's count is most of its cost), for a figure a few milliseconds younger.
    const total = db.queryBuilder().select(db.raw('?::bigint AS count', [counts.matching]));
    return fetchPage(query, 'receivables', page, toReceivable, { total, planEach: true, ...(dense ? { branches: BY_STATUS } : {}) });
  }
}
