import type { CommonListFilter, Page, PageRequest } from '../shared/page';
import type { NewTransfer, Transfer, TransferStatus } from './transfer';
import type { TransferType } from './transfer-destination';

export interface TransferRepository {
  insert(draft: NewTransfer): Promise<Transfer>;
  /** Reads and locks the row: approving, rejecting and cancelling one transfer wait for each other. */
  getForUpdate(id: number): Promise<Transfer | undefined>;
  /** Version-checked save: concurrent-modification if the row changed since it was read. */
  update(transfer: Transfer): Promise<void>;
  /**
   * The worker's queue: due transfers (PENDING, or SCHEDULED for `today` or before) whose destination account is
   * known (an alias already resolved), earliest day then lowest id first, locked; rows another worker holds are
   * skipped, not waited for.
   */
  lockDue(due: DueTransfers): Promise<Transfer[]>;
  /**
   * Due OUTGOING transfers whose alias is not resolved yet, unlocked (resolving takes a provider call), in the
   * queue's order, after `after` when given: a pass walks them chunk by chunk, each once.
   */
  dueUnresolved(due: DueTransfers & { readonly after?: QueuePosition }): Promise<Transfer[]>;
  /** IN_PROGRESS transfers whose lease ended before `now` (their worker died or gave up waiting), locked, skipping held ones. */
  lockLeaseEnded(now: Date, limit: number, customerId?: number): Promise<Transfer[]>;
  /** Those of `ids` still IN_PROGRESS, locked (waiting for a holder), lowest id first. */
  lockInProgress(ids: readonly number[]): Promise<Transfer[]>;
  /** Version-checked save of many at once: concurrent-modification if any changed since it was read. */
  updateAll(transfers: readonly Transfer[]): Promise<void>;
}

export interface DueTransfers {
  /** Buenos Aires day: SCHEDULED transfers dated up to it are due. */
  readonly today: string;
  readonly limit: number;
  /** One customer's (the sandbox helper); every customer's without it. */
  readonly customerId?: number;
}

/** A transfer's place in the worker's queue: its scheduled day (none: before every day), then its id. */
export interface QueuePosition {
  readonly scheduledDate: string | null;
  readonly id: number;
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
