import type { TransactionScope } from '../../transaction-scope';
import type { ReceivableAccount } from '../receivable-account';

/** Stores the event of an account's move, if it made one, with the account's pending sum read in the move's transaction. */
export async function recordAccountEvent(tx: Pick<TransactionScope, 'receivableAccounts' | 'outbox'>, account: ReceivableAccount): Promise<void> {
  if (account.eventType === null) return;
  await tx.outbox.record(account.eventsWith(await tx.receivableAccounts.pendingAmountMinor(account.id)));
}
