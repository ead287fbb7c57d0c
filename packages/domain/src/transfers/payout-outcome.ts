import { ProviderError, type BankProvider, type PayoutRecord } from '../bank/bank-provider';
import type { NewMovement } from '../ledger/movement';
import type { Transfer, TransferLease } from './transfer';
import { transferMovement } from './transfer-movements';
import { payoutIdOf, type PayoutPolicy } from './payout-policy';

/** What the provider said about a transfer's payout, as far as the worker could find out. */
export type PayoutOutcome =
  | { readonly kind: 'completed' }
  | { readonly kind: 'rejected'; readonly reason: string }
  /** Taken and on its way (ACCEPTED), or no answer: the next pass asks again under the same id. */
  | { readonly kind: 'unknown' }
  /** The provider has no record of it and the worker has tried long enough: nothing was ever paid. */
  | { readonly kind: 'given-up' }
  /**
   * The provider has no record of it, its destination now takes no payment from it, and it is not sent: left under
   * this pass's lease, so the next pass asks again once any send of an earlier pass has had time to land.
   */
  | { readonly kind: 'held' }
  /** The provider has no record of it on the last pass and its destination now takes no payment from it. */
  | { readonly kind: 'refused'; readonly failureReason: string };

const outcomeOf = (record: PayoutRecord): PayoutOutcome =>
  record.state === 'COMPLETED' ? { kind: 'completed' } : record.state === 'REJECTED' ? { kind: 'rejected', reason: record.reason } : { kind: 'unknown' };

/** A transfer whose lease ended, with the reason its destination refuses it now, if it does. */
export interface Reconciling {
  readonly refusal: string | undefined;
}

/** Whether a payout may still start under the lease this worker holds on the transfer (early enough to end under it). */
export type MayStartSend = () => boolean;

/**
 * Sends the payout of a transfer debited and IN_PROGRESS, under the transfer's own idempotency key, if
 * `mayStartSend`: a send starts only early enough in its lease to end under it (a chunk's last payouts wait behind
 * its first ones on a slow provider), as another worker may reconcile the transfer once the lease ends. When `reconciling` (its lease ended:
 * a worker died or the provider did not answer), the provider is asked first what it holds under that key, and
 * only a payout it never took is sent, and only to a destination that still takes it: it is never paid twice. No
 * database transaction is open while this waits on the provider.
 */
export async function payOut(
  bank: BankProvider,
  transfer: Transfer,
  policy: PayoutPolicy,
  mayStartSend: MayStartSend,
  reconciling?: Reconciling,
): Promise<PayoutOutcome> {
  const t = transfer.toSnapshot();
  const payoutId = payoutIdOf(t.id);
  try {
    if (reconciling) {
      const record = await bank.getPayout(payoutId);
      if (record) return outcomeOf(record);
      // Its own word that it never took the payout, after every pass asked: a send of an earlier pass, started
      // under its lease, has landed or never will by then. Give the money back.
      if (t.processing.attempts > policy.maxAttempts) {
        return reconciling.refusal ? { kind: 'refused', failureReason: reconciling.refusal } : { kind: 'given-up' };
      }
      // Never sent again where it would be refused; but a send of an earlier pass may still land, so not failed yet.
      if (reconciling.refusal) return { kind: 'held' };
    }
    if (!mayStartSend()) return { kind: 'unknown' };
    const record = await bank.sendPayout({
      payoutId,
      amountMinor: t.amountMinor,
      currencyCode: t.currencyCode,
      destination: { cbuCvu: t.destination.cbuCvu! },
      ...(t.destination.counterParty ? { counterParty: t.destination.counterParty } : {}),
    });
    return outcomeOf(record);
  } catch (error) {
    // Down, slow or timed out: maybe taken, maybe not. Only the provider's record can tell, on the next pass.
    if (error instanceof ProviderError) return { kind: 'unknown' };
    throw error;
  }
}

/** The transfer and the movement (a reversal of its debit) an outcome leads to, for the recording transaction. */
export function settleOutcome(
  transfer: Transfer,
  outcome: PayoutOutcome,
  lease: TransferLease,
  now: Date,
): { readonly transfer: Transfer; readonly reversal: NewMovement | null } {
  switch (outcome.kind) {
    case 'completed':
      return { transfer: transfer.complete(now), reversal: null };
    case 'unknown':
      return { transfer: transfer.releaseLease(lease, now), reversal: null };
    case 'held':
      return { transfer, reversal: null };
    case 'rejected':
    case 'given-up':
    case 'refused': {
      const reason = outcome.kind === 'refused' ? outcome.failureReason : outcome.kind === 'rejected' ? 'destination-rejected' : 'provider-unavailable';
      const failed = transfer.fail(reason, now);
      // The debit stays as it was; a new CREDIT returns it.
      return { transfer: failed, reversal: transferMovement(failed, 'TRANSFER_REVERSAL', failed.toSnapshot().sourceAccountId, now) };
    }
  }
}
