import type { CommonListFilter, Page, PageRequest } from '../shared/page';
import type { NewTransfer, Transfer, TransferStatus } from './transfer';
import type { TransferType } from './transfer-destination';

export interface TransferRepository {
  insert(draft: NewTransfer): Promise<Transfer>;
  /** Reads and locks the row: approving, rejecting and cancelling one transfer wait for each other. */
  getForUpdate(id: number): Promise<Transfer | undefined>;
  /** Version-checked save: concurrent-modification if the row changed since it was read. */
  update(transfer: Transfer): Promise<void>;
}

export interface TransferListFilter extends CommonListFilter {
  readonly customerId: number;
  readonly type?: TransferType;
  readonly status?: TransferStatus;
  readonly sourceAccountId?: number;
  readonly externalId?: string;
}

export interface TransferQueries {
  get(id: number): Promise<Transfer | undefined>;
  /** Newest first. */
  list(filter: TransferListFilter, page: PageRequest): Promise<Page<Transfer>>;
}
