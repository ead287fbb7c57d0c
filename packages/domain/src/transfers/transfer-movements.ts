import type { DomainEvent } from '../shared/events';
import type { NewMovement, MovementSubtype } from '../ledger/movement';
import type { CurrentAccountRecord } from '../current-accounts/current-account-queries';
import type { Transfer, TransferLease } from './transfer';

/** A movement of a transfer on one current account (TRANSFER_OUT, TRANSFER_IN or TRANSFER_REVERSAL). */
export function transferMovement(transfer: Transfer, subtype: MovementSubtype, accountId: number, now: Date): NewMovement {
  const t = transfer.toSnapshot();
  return {
    customerId: t.customerId,
    accountId,
    accountKind: 'CURRENT',
    movementType: subtype === 'TRANSFER_OUT' ? 'DEBIT' : 'CREDIT',
    operationType: 'TRANSFER',
    subtype,
    amountMinor: t.amountMinor,
    currencyCode: t.currencyCode,
    counterParty: t.destination.counterParty,
    settlementId: null,
    providerReference: null,
    transferId: t.id,
    movementDate: now,
  };
}

/** What one claiming transaction writes: the transfers as they end it, their movements and events. */
export interface DebitPlan {
  readonly transfers: readonly Transfer[];
  readonly movements: readonly NewMovement[];
  readonly events: readonly DomainEvent[];
  /** OUTGOING transfers debited and IN_PROGRESS: their payouts are sent once the transaction commits. */
  readonly toPay: readonly Transfer[];
}

/**
 * Decides each due transfer in queue order against the balances read under lock: paid from the balance left by
 * the ones before it (an INTERNAL_TRANSFER's credit counts at once), or FAILED without any debit when the balance
 * cannot cover it, an account is not ACTIVE, or `refused` holds a reason its destination takes no payment from
 * it. Balances never go below zero: a transfer is debited only from what is there.
 */
export function planDebits(
  due: readonly Transfer[],
  accounts: readonly CurrentAccountRecord[],
  refused: ReadonlyMap<number, string>,
  today: string,
  now: Date,
  lease: TransferLease,
): DebitPlan {
  const balance = new Map(accounts.map((a) => [a.account.id, a.balanceMinor]));
  const active = new Set(accounts.filter((a) => a.account.status === 'ACTIVE').map((a) => a.account.id));
  const transfers: Transfer[] = [];
  const movements: NewMovement[] = [];
  const toPay: Transfer[] = [];
  for (const transfer of due) {
    const t = transfer.toSnapshot();
    const destinationId = t.destination.accountId;
    const failure = !active.has(t.sourceAccountId)
      ? 'source-account-not-active'
      : destinationId !== null && !active.has(destinationId)
        ? 'destination-account-not-active'
        : (refused.get(t.id) ?? (balance.get(t.sourceAccountId)! < t.amountMinor ? 'insufficient-balance' : null));
    if (failure) {
      transfers.push(transfer.fail(failure, now));
      continue;
    }
    balance.set(t.sourceAccountId, balance.get(t.sourceAccountId)! - t.amountMinor);
    movements.push(transferMovement(transfer, 'TRANSFER_OUT', t.sourceAccountId, now));
    if (destinationId === null) {
      const started = transfer.start(today, now, lease);
      transfers.push(started);
      toPay.push(started);
    } else {
      // No provider between two accounts of ours: both sides move in this transaction, and it is done.
      balance.set(destinationId, balance.get(destinationId)! + t.amountMinor);
      movements.push(transferMovement(transfer, 'TRANSFER_IN', destinationId, now));
      transfers.push(transfer.completeAtOnce(today, now));
    }
  }
  return { transfers, movements, events: transfers.flatMap((t) => t.events), toPay };
}
