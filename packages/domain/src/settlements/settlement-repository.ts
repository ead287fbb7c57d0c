import type { Page, PageRequest } from '../shared/page';
import type { ReceivableSnapshot } from '../receivables/receivable';
import type { OpenedSettlement, Settlement } from './settlement';

/** Which receivable accounts holding unsettled collected funds a chunk takes, lowest id first. */
export interface DueAccountsPick {
  readonly limit: number;
  /** Only this customer's accounts (the sandbox helper); without, every customer's (the cycle). */
  readonly customerId?: number;
  /** Only these accounts (a failed chunk's, settled one at a time). */
  readonly accountIds?: readonly number[];
  /** Not these accounts (those whose settlement failed earlier in the run). */
  readonly excluding?: readonly number[];
}

export interface SettlementRepository {
  /**
   * Locks up to `pick.limit` receivable accounts holding unsettled collected funds, skipping accounts another run
   * holds, and answers their ids, lowest first. In the caller's transaction, for `settle` to settle.
   */
  lockDue(pick: DueAccountsPick): Promise<readonly number[]>;
  /**
   * Settles the accounts `lockDue` locked: per account one settlement record into the customer's MAIN current
   * account, its SETTLEMENT_OUT movement (with its movement.created event) and balance, and its PAID receivables
   * turned SETTLED. Set-based, in the caller's transaction, so the chunk commits whole or not at all; an account it
   * cannot settle (no MAIN current account) fails the chunk rather than being passed over. The chunk is not
   * complete until `credit` has run in the same transaction.
   */
  settle(now: Date, accountIds: readonly number[]): Promise<readonly OpenedSettlement[]>;
  /**
   * The receivables `settle` turned SETTLED for `settlements`, as they are now, lowest id first, at most
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
