import type { Page, PageRequest } from '../shared/page';
import type { AccountKind, Movement, MovementType, NewMovement, OperationType } from './movement';

export interface LedgerRepository {
  /** Appends a movement and applies it to its account's balance, in the caller's transaction. */
  append(movement: NewMovement): Promise<Movement>;
  /**
   * Appends movements of current accounts, set-based, each applied to its account's balance; a balance that would go below zero fails the whole transaction. No settlement or provider
   * reference: transfers are what moves this way. Answers the movements as recorded (with their ids), for their events.
   */
  appendAll(movements: readonly NewMovement[]): Promise<Movement[]>;
  /**
   * The movement recorded for a provider transfer id, if any, read once any other transaction handling the same id
   * has ended, and holding later ones off until this one ends: two notifications of one transfer, even naming
   * different CVUs, record it once and neither fails.
   */
  findByProviderReference(reference: string): Promise<Movement | undefined>;
}

export interface MovementListFilter {
  readonly customerId: number;
  readonly accountId: number;
  readonly accountKind: AccountKind;
  readonly fromDate?: Date;
  readonly toDate?: Date;
  readonly movementType?: MovementType;
  readonly operationType?: OperationType;
  /** movementDate order; newest first unless 'asc'. */
  readonly order: 'asc' | 'desc';
}

/** One account whose stored balance differs from the sum of its movements. */
export interface LedgerMismatch {
  readonly accountId: number;
  readonly accountKind: AccountKind;
  readonly balanceMinor: bigint;
  readonly movementsMinor: bigint;
}

export interface LedgerQueries {
  listMovements(filter: MovementListFilter, page: PageRequest): Promise<Page<Movement>>;
  /** Accounts whose balance is not the sum of their movements; empty when the ledger holds. */
  mismatches(): Promise<LedgerMismatch[]>;
}
