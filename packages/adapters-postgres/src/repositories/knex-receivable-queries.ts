import type { Knex } from 'knex';
import { RECEIVABLE_STATUSES, type Page, type PageRequest, type Receivable, type ReceivableListFilter, type ReceivableQueries } from '@rcs/domain';
import { maintainedTotal, type CountedList } from './list-counts';
import { applyCommonFilter, fetchPage } from './paging';
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
};

/**
 * A list without status is read as one ordered range per status, merged: the lists' indexes lead with the scope
 * and the status (migration 016), and serve the list with and without status alike.
 */
const BY_STATUS = { column: 'status', values: RECEIVABLE_STATUSES };

const RANGES = ['fromDueDate', 'toDueDate', 'fromIssueDate', 'toIssueDate', 'minAmountMinor', 'maxAmountMinor'] as const;

export class KnexReceivableQueries implements ReceivableQueries {
  /** `db` gives what a read runs on: the pool, or the transaction the storage ports are bound to. */
  constructor(private readonly db: () => Knex) {}

  async get(id: number): Promise<Receivable | undefined> {
    const row = await this.db()('receivables').where({ id }).first<ReceivableRow | undefined>();
    return row && toReceivable(row);
  }

  list(filter: ReceivableListFilter, page: PageRequest): Promise<Page<Receivable>> {
    const db = this.db();
    const query = applyCommonFilter(db('receivables').where('customer_id', filter.customerId), filter, 'receivables');
    for (const [column, member] of EXACT) if (filter[member] !== undefined) query.where(column, filter[member] as string | number);
    // Migration 030's predicate, written out: a generic plan of this named statement, which cannot read it from the
    // type's parameter, uses that index too.
    if (filter.receivableType !== undefined && filter.receivableType !== 'INVOICE') query.whereRaw(`receivable_type <> 'INVOICE'`);
    if (filter.fromDueDate !== undefined) query.where('due_date', '>=', filter.fromDueDate);
    if (filter.toDueDate !== undefined) query.where('due_date', '<=', filter.toDueDate);
    if (filter.fromIssueDate !== undefined) query.where('issue_date', '>=', filter.fromIssueDate);
    if (filter.toIssueDate !== undefined) query.where('issue_date', '<=', filter.toIssueDate);
    if (filter.minAmountMinor !== undefined) query.where('amount_minor', '>=', filter.minAmountMinor.toString());
    if (filter.maxAmountMinor !== undefined) query.where('amount_minor', '<=', filter.maxAmountMinor.toString());
    // A range of due date, issue date or amount has its own index, read with a sort of what it matches; walked by
    // status branches newest first instead, a status holding nothing in the range was read to its end.
    const ranged = RANGES.some((member) => filter[member] !== undefined);
    return fetchPage(query, 'receivables', page, toReceivable, {
      total: maintainedTotal(db, COUNTED, filter),
      ...(filter.status === undefined && !ranged ? { branches: BY_STATUS } : {}),
    });
  }
}
