import type { Customer, NewCustomer } from './customer';
import type { Credential, CredentialSnapshot, CredentialSummary, NewCredential } from './credential';

export interface CustomerRepository {
  get(id: number): Promise<Customer | undefined>;
  /** Inserts unless a customer of that name exists; concurrent callers agree on one row. */
  insertIfAbsent(customer: NewCustomer): Promise<{ customer: Customer; created: boolean }>;
  /** The alias templates customers have, each once. */
  aliasTemplates(): Promise<string[]>;
}

export interface CredentialRepository {
  findByClientId(clientId: string): Promise<CredentialSnapshot | undefined>;
  /** Reads and locks the row, for a move. */
  getForUpdate(clientId: string): Promise<Credential | undefined>;
  /** Inserts unless the clientId exists; concurrent callers agree on one row. */
  insertIfAbsent(credential: NewCredential): Promise<{ credential: CredentialSnapshot; created: boolean }>;
  replaceSecretHash(id: number, secretHash: string): Promise<void>;
  /** Saves a moved credential's status; concurrent-modification unless the row is still in the status it was read in. */
  update(credential: Credential): Promise<void>;
}

/** The operator's reads (admin CLI): every customer, and a customer's credentials without their secret hashes. */
export interface CustomerQueries {
  get(id: number): Promise<Customer | undefined>;
  /** Oldest first. */
  list(): Promise<Customer[]>;
  /** Oldest first; empty for a customer without credentials or one that does not exist. */
  credentialsOf(customerId: number): Promise<CredentialSummary[]>;
}
