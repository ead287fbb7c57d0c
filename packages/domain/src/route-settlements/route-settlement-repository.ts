import type { Page, PageRequest } from '../shared/page';
import type { NewRouteSettlement, RouteSettlement, RouteSettlementRecord, RouteSettlementSummary } from './route-settlement';

export interface RouteSettlementRepository {
  findByCode(customerId: number, routeCode: string): Promise<RouteSettlement | undefined>;
  /** The customer's route settlements with any of `routeCodes`, in no particular order. */
  findByCodes(customerId: number, routeCodes: readonly string[]): Promise<RouteSettlement[]>;
  /** Inserts unless the customer already has the code; concurrent callers agree on one row. */
  insertIfAbsent(settlement: NewRouteSettlement): Promise<{ settlement: RouteSettlement; created: boolean }>;
}

export interface RouteSettlementListFilter {
  readonly customerId: number;
  readonly associateId?: number;
  readonly routeCode?: string;
  /** On the settlement's date (YYYY-MM-DD), inclusive. */
  readonly fromDate?: string;
  readonly toDate?: string;
}

export interface RouteSettlementQueries {
  getByCode(customerId: number, routeCode: string): Promise<RouteSettlementRecord | undefined>;
  list(filter: RouteSettlementListFilter, page: PageRequest): Promise<Page<RouteSettlementRecord>>;
  /** The summary of the settlement `id` over the receivables it groups now. */
  summaryOf(id: number): Promise<RouteSettlementSummary>;
}
