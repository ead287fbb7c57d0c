import { transferView, type Transfer } from '@rcs/domain';

/** The wire shape of a transfer: the same view its events carry. */
export const transferResponse = (transfer: Transfer) => transferView(transfer.toSnapshot());
