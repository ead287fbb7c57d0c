import type { DomainEvent } from '../shared/events';
import type { CurrencyCode } from '../shared/money';
import { jsonAmount } from '../shared/exact-json';

export const MOVEMENT_TYPES = ['CREDIT', 'DEBIT'] as const;
export type MovementType = (typeof MOVEMENT_TYPES)[number];

/** What moved the money: a collection arriving (DEPOSIT), the sweep to the current account (SETTLEMENT), a transfer paid out of it (TRANSFER). */
export const OPERATION_TYPES = ['DEPOSIT', 'SETTLEMENT', 'TRANSFER'] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];

/**
 * TRANSFER_OUT debits a transfer's source, TRANSFER_IN credits an INTERNAL_TRANSFER's destination, TRANSFER_REVERSAL
 * returns the debit of a transfer that failed after it (a new row: the debit itself is never edited).
 */
export const MOVEMENT_SUBTYPES = ['SETTLEMENT_OUT', 'SETTLEMENT_IN', 'TRANSFER_OUT', 'TRANSFER_IN', 'TRANSFER_REVERSAL'] as const;
export type MovementSubtype = (typeof MOVEMENT_SUBTYPES)[number];

export type AccountKind = 'RECEIVABLE' | 'CURRENT';

export interface CounterParty {
  readonly name: string;
  readonly taxId: string;
}

/** An immutable ledger row: money entering (CREDIT) or leaving (DEBIT) one account. Never updated or deleted. */
export interface Movement {
  readonly id: number;
  readonly customerId: number;
  readonly accountId: number;
  readonly accountKind: AccountKind;
  readonly movementType: MovementType;
  readonly operationType: OperationType;
  readonly subtype: MovementSubtype | null;
  readonly amountMinor: bigint;
  readonly currencyCode: CurrencyCode;
  readonly counterParty: CounterParty | null;
  readonly settlementId: number | null;
  /** The provider's id of the transfer that brought the money; one movement per id, ever. */
  readonly providerReference: string | null;
  /** The transfer that moved it; each (transfer, subtype) happens once, ever. */
  readonly transferId: number | null;
  readonly movementDate: Date;
}

export type NewMovement = Omit<Movement, 'id'>;

/** The public representation, for API responses and the movement.created payload (SPEC "Events" 4). */
export function movementView(m: Movement) {
  return {
    id: m.id,
    ...(m.accountKind === 'RECEIVABLE' ? { receivableAccountId: m.accountId } : { currentAccountId: m.accountId }),
    movementType: m.movementType,
    operationType: m.operationType,
    subtype: m.subtype,
    amount: jsonAmount(m.amountMinor),
    currencyCode: m.currencyCode,
    counterParty: m.counterParty,
    settlementId: m.settlementId,
    transferId: m.transferId,
    movementDate: m.movementDate.toISOString(),
  };
}

/** movement.created, in the transaction that records the movement (SPEC "Events" 3). */
export const movementCreated = (m: Movement): DomainEvent => ({
  customerId: m.customerId,
  type: 'movement.created',
  occurredAt: m.movementDate,
  data: { movement: movementView(m) },
});

/** Signed effect of a movement on its account's balance. */
export const signedAmount = (m: Pick<Movement, 'movementType' | 'amountMinor'>): bigint => (m.movementType === 'CREDIT' ? m.amountMinor : -m.amountMinor);
