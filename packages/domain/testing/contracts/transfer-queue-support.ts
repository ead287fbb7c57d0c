import type { MovementSubtype, NewMovement, TransferSnapshot } from '../../src';

/** A movement of `transfer` on a current account, of any amount: the contract's way to fund and debit accounts. */
export function transferMovementOf(transfer: TransferSnapshot, subtype: MovementSubtype, accountId: number, amountMinor: bigint, when: Date): NewMovement {
  return {
    customerId: transfer.customerId,
    accountId,
    accountKind: 'CURRENT',
    movementType: subtype === 'TRANSFER_OUT' ? 'DEBIT' : 'CREDIT',
    operationType: 'TRANSFER',
    subtype,
    amountMinor,
    currencyCode: transfer.currencyCode,
    counterParty: null,
    settlementId: null,
    providerReference: null,
    transferId: transfer.id,
    movementDate: when,
  };
}
