import {
  signedMinor,
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
} from '../../src';
import { nextId, type Tables, type TablesRef, type TablesSource } from './in-memory-tables';
import { pageOf } from './in-memory-paging';

export class InMemoryRouteSettlementRepository implements RouteSettlementRepository {
  constructor(private readonly ref: TablesRef) {}

  async findByCode(customerId: number, routeCode: string): Promise<RouteSettlement | undefined> {
    return [...this.ref.tables.routeSettlements.values()].find((s) => s.customerId === customerId && s.routeCode === routeCode);
  }

  async findByCodes(customerId: number, routeCodes: readonly string[]): Promise<RouteSettlement[]> {
    return [...this.ref.tables.routeSettlements.values()].filter((s) => s.customerId === customerId && routeCodes.includes(s.routeCode));
  }

  async insertIfAbsent(settlement: NewRouteSettlement): Promise<{ settlement: RouteSettlement; created: boolean }> {
    const existing = await this.findByCode(settlement.customerId, settlement.routeCode);
    if (existing) return { settlement: existing, created: false };
    const stored = { ...settlement, id: nextId(this.ref.tables, 'route-settlement') };
    this.ref.tables.routeSettlements.set(stored.id, stored);
    return { settlement: stored, created: true };
  }
}

/** Net totals per type over the grouped receivables that are not cancelled. */
export function summarise(tables: Tables, settlementId: number): RouteSettlementSummary {
  const grouped = [...tables.receivables.values()].filter((r) => r.routeSettlementId === settlementId && r.status !== 'DISABLED');
  const byType = new Map<ReceivableType, { count: number; amountMinor: bigint }>();
  for (const r of grouped) {
    const entry = byType.get(r.receivableType) ?? { count: 0, amountMinor: 0n };
    byType.set(r.receivableType, { count: entry.count + 1, amountMinor: entry.amountMinor + signedMinor(r.receivableType, r.amountMinor) });
  }
  return {
    receivablesCount: grouped.length,
    totalAmountMinor: grouped.reduce((sum, r) => sum + signedMinor(r.receivableType, r.amountMinor), 0n),
    byReceivableType: [...byType.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([type, v]) => ({ type, ...v })),
    receivableAccountIds: [...new Set(grouped.map((r) => r.receivableAccountId))].sort((a, b) => a - b),
  };
}

export class InMemoryRouteSettlementQueries implements RouteSettlementQueries {
  constructor(private readonly source: TablesSource) {}

  async getByCode(customerId: number, routeCode: string): Promise<RouteSettlementRecord | undefined> {
    const tables = this.source.visibleTables();
    const settlement = [...tables.routeSettlements.values()].find((s) => s.customerId === customerId && s.routeCode === routeCode);
    return settlement && { settlement, summary: summarise(tables, settlement.id) };
  }

  async summaryOf(id: number): Promise<RouteSettlementSummary> {
    return summarise(this.source.visibleTables(), id);
  }

  async list(filter: RouteSettlementListFilter, page: PageRequest): Promise<Page<RouteSettlementRecord>> {
    const tables = this.source.visibleTables();
    const rows = [...tables.routeSettlements.values()].filter(
      (s) =>
        s.customerId === filter.customerId &&
        (filter.associateId === undefined || s.associateId === filter.associateId) &&
        (filter.routeCode === undefined || s.routeCode === filter.routeCode) &&
        (filter.fromDate === undefined || s.date >= filter.fromDate) &&
        (filter.toDate === undefined || s.date <= filter.toDate),
    );
    return pageOf(rows, page, (settlement) => ({ settlement, summary: summarise(tables, settlement.id) }));
  }
}
