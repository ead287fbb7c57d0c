import type { Page, PageRequest } from '../shared/page';
import type { SettledChunk, Settlement } from './settlement';

export interface SettlementRepository {
  /**
   * Settles up to `limit` receivable accounts holding unsettled collected funds, skipping accounts another run
   * holds: per account one settlement record, a SETTLEMENT_OUT/SETTLEMENT_IN movement pair into the customer's
   * MAIN current account, both balances, lastSettlementDate, and its PAID receivables turned SETTLED. Set-based,
   * in the caller's transaction, so the chunk commits whole or not at all.
   */
  settleDue(now: Date, limit: number): Promise<SettledChunk>;
}

export interface SettlementListFilter {
  readonly customerId: number;
  readonly receivableAccountId?: number;
  readonly fromDate?: Date;
  readonly toDate?: Date;
}

export interface SettlementQueries {
  get(id: number): Promise<Settlement | undefined>;
  list(filter: SettlementListFilter, page: PageRequest): Promise<Page<Settlement>>;
}
