import type { Page, PageRequest } from '../shared/page';
import type { ReceivableSnapshot } from '../receivables/receivable';
import type { OpenedSettlement, Settlement } from './settlement';

export interface SettlementRepository {
  /**
   * Settles up to `limit` receivable accounts holding unsettled collected funds, skipping accounts another run
   * holds: per account one settlement record into the customer's MAIN current account, its SETTLEMENT_OUT
   * movement (with its movement.created event) and balance, and its PAID receivables turned SETTLED. Set-based,
   * in the caller's transaction, so the chunk commits whole or not at all. The chunk is not complete until `credit` has run in the same transaction.
   * With `customerId`, only that customer's accounts (the sandbox helper); without, every customer's (the cycle).
   */
  settleDue(now: Date, limit: number, customerId?: number): Promise<readonly OpenedSettlement[]>;
  /**
   * The receivables `settleDue` turned SETTLED for `settlements`, as they are now, lowest id first, at most
   * `batchSize` at a time: an account with a million PAID receivables never sits in memory whole.
   */
  settledReceivables(settlements: readonly OpenedSettlement[], batchSize: number): AsyncIterable<readonly ReceivableSnapshot[]>;
  /**
   * The receiving side of `settlements`: the SETTLEMENT_IN movements with their movement.created events, the MAIN
   * current accounts' balances and lastSettlementDate. The movement events are the repository's to write, beside
   * the movements, so a chunk's rows need not travel to the service and back. It locks those current accounts,
   * which every chunk of a customer shares, so the caller runs it last, just before committing, and concurrent
   * chunks overlap everything else.
   */
  credit(settlements: readonly OpenedSettlement[], now: Date): Promise<void>;
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
