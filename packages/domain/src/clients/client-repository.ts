import type { CommonListFilter, Page, PageRequest } from '../shared/page';
import type { DocumentType } from '../shared/tax-id';
import type { Client, NewClient } from './client';

/** Transactional access to clients. */
export interface ClientRepository {
  /** Reads and locks the row until the transaction ends, so concurrent edits serialise. */
  getForUpdate(id: number): Promise<Client | undefined>;
  /** The clients among `ids` that exist, unlocked, in no particular order. */
  getMany(ids: readonly number[]): Promise<Client[]>;
  /**
   * Inserts unless a client with the same identity exists for the customer; concurrent callers with one identity
   * agree on a single row.
   */
  insertIfAbsent(client: NewClient): Promise<{ client: Client; created: boolean }>;
  /** Saves a changed client if nobody changed it since it was read (version check), else concurrent-modification. */
  update(client: Client): Promise<void>;
}

export interface ClientListFilter extends CommonListFilter {
  readonly customerId: number;
  readonly taxId?: string;
  readonly documentType?: DocumentType;
  readonly branchExternalCode?: string;
  readonly externalId?: string;
}

/** Read side: list pages straight from storage, newest first. */
export interface ClientQueries {
  get(id: number): Promise<Client | undefined>;
  list(filter: ClientListFilter, page: PageRequest): Promise<Page<Client>>;
}
