import type { Knex } from 'knex';
import {
  EMPTY_ROUTE_SUMMARY,
  type NewRouteSettlement,
  type Page,
  type PageRequest,
  type ReceivableType,
  type RouteSettlement,
  type RouteSettlementListFilter,
  type RouteSettlementQueries,
  type RouteSettlementRecord,
  type RouteSettlementRepository,
  type RouteSettlementSummary,
} from '@rcs/domain';
import { maintainedTotal, type CountedList } from './list-counts';
import { fetchPage } from './paging';
import { signedAmountSql } from './receivable-rows';

interface RouteSettlementRow {
  id: string;
  customer_id: string;
  route_code: string;
  date: string;
  associate_id: string;
  creation_date: Date;
  modification_date: Date;
}

const toRouteSettlement = (row: RouteSettlementRow): RouteSettlement => ({
  id: Number(row.id),
  customerId: Number(row.customer_id),
  routeCode: row.route_code,
  date: row.date,
  associateId: Number(row.associate_id),
  creationDate: row.creation_date,
  modificationDate: row.modification_date,
});

export class KnexRouteSettlementRepository implements RouteSettlementRepository {
  constructor(private readonly trx: Knex.Transaction) {}

  async findByCode(customerId: number, routeCode: string): Promise<RouteSettlement | undefined> {
    const row = await this.trx('route_settlements').where({ customer_id: customerId, route_code: routeCode }).first<RouteSettlementRow | undefined>();
    return row && toRouteSettlement(row);
  }

  async findByCodes(customerId: number, routeCodes: readonly string[]): Promise<RouteSettlement[]> {
    if (routeCodes.length === 0) return [];
    const rows = await this.trx('route_settlements')
      .where({ customer_id: customerId })
      .whereRaw('route_code = ANY(?::text[])', [[...routeCodes]])
      .select<RouteSettlementRow[]>('*');
    return rows.map(toRouteSettlement);
  }

  async insertIfAbsent(s: NewRouteSettlement): Promise<{ settlement: RouteSettlement; created: boolean }> {
    const [inserted] = await this.trx('route_settlements')
      .insert({
        customer_id: s.customerId,
        route_code: s.routeCode,
        date: s.date,
        associate_id: s.associateId,
        creation_date: s.creationDate,
        modification_date: s.modificationDate,
      })
      .onConflict(['customer_id', 'route_code'])
      .ignore()
      .returning<RouteSettlementRow[]>('*');
    if (inserted) return { settlement: toRouteSettlement(inserted), created: true };
    const existing = await this.findByCode(s.customerId, s.routeCode);
    if (!existing) throw new Error('route code conflicted but no row was found');
    return { settlement: existing, created: false };
  }
}

const COUNTED: CountedList<RouteSettlementListFilter> = { list: 'route_settlements', scopes: { associateId: 'associate' }, status: null };

export class KnexRouteSettlementQueries implements RouteSettlementQueries {
  constructor(private readonly db: () => Knex) {}

  async getByCode(customerId: number, routeCode: string): Promise<RouteSettlementRecord | undefined> {
    const row = await this.db()('route_settlements').where({ customer_id: customerId, route_code: routeCode }).first<RouteSettlementRow | undefined>();
    if (!row) return undefined;
    const settlement = toRouteSettlement(row);
    return { settlement, summary: await this.summaryOf(settlement.id) };
  }

  async summaryOf(id: number): Promise<RouteSettlementSummary> {
    return (await this.summaries([id])).get(id)!;
  }

  async list(filter: RouteSettlementListFilter, page: PageRequest): Promise<Page<RouteSettlementRecord>> {
    const query = this.db()('route_settlements').where('customer_id', filter.customerId);
    if (filter.associateId !== undefined) query.where('associate_id', filter.associateId);
    if (filter.routeCode !== undefined) query.where('route_code', filter.routeCode);
    if (filter.fromDate !== undefined) query.where('date', '>=', filter.fromDate);
    if (filter.toDate !== undefined) query.where('date', '<=', filter.toDate);
    const settlements = await fetchPage(query, 'route_settlements', page, toRouteSettlement, {
      total: maintainedTotal(this.db(), COUNTED, filter),
      // A range of shift dates, which are not the list's order.
      planEach: filter.fromDate !== undefined || filter.toDate !== undefined,
    });
    const summaries = await this.summaries(settlements.items.map((s) => s.id));
    return { ...settlements, items: settlements.items.map((settlement) => ({ settlement, summary: summaries.get(settlement.id)! })) };
  }

  /** One grouped query for the summaries of a page of settlements (cancelled receivables left out). */
  private async summaries(ids: number[]): Promise<Map<number, RouteSettlementSummary>> {
    const result = new Map<number, RouteSettlementSummary>(ids.map((id) => [id, EMPTY_ROUTE_SUMMARY]));
    if (ids.length === 0) return result;
    const { rows } = await this.db().raw<{
      rows: Array<{ route_settlement_id: string; receivable_type: ReceivableType; count: string; amount: string; accounts: string[] }>;
    }>(
      `SELECT route_settlement_id, receivable_type, count(*) AS count,
              SUM(${signedAmountSql('receivables')}) AS amount,
              array_agg(DISTINCT receivable_account_id) AS accounts
       FROM receivables
       WHERE route_settlement_id = ANY(?) AND status <> 'DISABLED'
       GROUP BY route_settlement_id, receivable_type
       ORDER BY route_settlement_id, receivable_type`,
      [ids],
    );
    for (const row of rows) {
      const id = Number(row.route_settlement_id);
      const current = result.get(id)!;
      const amountMinor = BigInt(row.amount);
      result.set(id, {
        receivablesCount: current.receivablesCount + Number(row.count),
        totalAmountMinor: current.totalAmountMinor + amountMinor,
        byReceivableType: [...current.byReceivableType, { type: row.receivable_type, count: Number(row.count), amountMinor }],
        receivableAccountIds: [...new Set([...current.receivableAccountIds, ...row.accounts.map(Number)])].sort((a, b) => a - b),
      });
    }
    return result;
  }
}
