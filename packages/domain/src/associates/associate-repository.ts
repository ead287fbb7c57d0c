import type { CommonListFilter, Page, PageRequest } from '../shared/page';
import type { Associate, AssociateStatus, NewAssociate } from './associate';

/** Deeper than any real hierarchy of drivers, supervisors and distributors; bounds a walk up a stored loop. */
export const MAX_SUPERVISOR_DEPTH = 100;

export interface AssociateRepository {
  /** Reads and locks the row until the transaction ends. */
  getForUpdate(id: number): Promise<Associate | undefined>;
  /**
   * Reads the row and keeps it from changing until the transaction ends, while others may still read and check
   * it: what a check that an associate stays ACTIVE needs. Checks of one associate run side by side instead of
   * queueing, as receivables naming the same associate do.
   */
  getForShare(id: number): Promise<Associate | undefined>;
  /** getForShare for each of `ids` that exists, in one go, in no particular order. */
  getManyForShare(ids: readonly number[]): Promise<Associate[]>;
  /** The associate, its supervisor, theirs and so on up the hierarchy (at most MAX_SUPERVISOR_DEPTH steps up). */
  supervisorChain(id: number): Promise<number[]>;
  /** Inserts unless the customer has an associate with that taxId; concurrent callers agree on one row. */
  insertIfAbsent(associate: NewAssociate): Promise<{ associate: Associate; created: boolean }>;
  /** Version-checked save; concurrent-modification when someone saved in between. */
  update(associate: Associate): Promise<void>;
}

export interface AssociateListFilter extends CommonListFilter {
  readonly customerId: number;
  readonly taxId?: string;
  readonly documentNumber?: string;
  readonly type?: string;
  readonly parentAssociateId?: number;
  readonly status?: AssociateStatus;
}

export interface AssociateQueries {
  get(id: number): Promise<Associate | undefined>;
  list(filter: AssociateListFilter, page: PageRequest): Promise<Page<Associate>>;
  /** Associates sharing a receivable account with the client (derived from account ownership). */
  listSharingAccountsWith(customerId: number, clientId: number, page: PageRequest): Promise<Page<Associate>>;
}
