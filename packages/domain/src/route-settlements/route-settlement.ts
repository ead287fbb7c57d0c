import type { ReceivableType } from '../receivables/receivable-type';

/** The receivables an associate registered during one workday under a route code. */
export interface RouteSettlement {
  readonly id: number;
  readonly customerId: number;
  /** Unique per customer: a code belongs to one date only. */
  readonly routeCode: string;
  readonly date: string;
  readonly associateId: number;
  readonly creationDate: Date;
  readonly modificationDate: Date;
}

export type NewRouteSettlement = Omit<RouteSettlement, 'id'>;

/** Computed over the grouped receivables that are not cancelled. */
export interface RouteSettlementSummary {
  readonly receivablesCount: number;
  /** Net: positive types add, negative types subtract. */
  readonly totalAmountMinor: bigint;
  readonly byReceivableType: ReadonlyArray<{ readonly type: ReceivableType; readonly count: number; readonly amountMinor: bigint }>;
  readonly receivableAccountIds: readonly number[];
}

/** What a settlement that groups no receivable yet (a new one) sums to. */
export const EMPTY_ROUTE_SUMMARY: RouteSettlementSummary = { receivablesCount: 0, totalAmountMinor: 0n, byReceivableType: [], receivableAccountIds: [] };

export interface RouteSettlementRecord {
  readonly settlement: RouteSettlement;
  readonly summary: RouteSettlementSummary;
}
