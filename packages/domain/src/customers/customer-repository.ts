import type { Credential, CredentialSummary, Customer, NewCredential, NewCustomer } from './customer';

export interface CustomerRepository {
  get(id: number): Promise<Customer | undefined>;
  /** Inserts unless a customer of that name exists; concurrent callers agree on one row. */
  insertIfAbsent(customer: NewCustomer): Promise<{ customer: Customer; created: boolean }>;
}

export interface CredentialRepository {
  findByClientId(clientId: string): Promise<Credential | undefined>;
  /** Inserts unless the clientId exists; concurrent callers agree on one row. */
  insertIfAbsent(credential: NewCredential): Promise<{ credential: Credential; created: boolean }>;
  replaceSecretHash(id: number, secretHash: string): Promise<void>;
  revoke(clientId: string): Promise<boolean>;
}

/** The operator's reads (admin CLI): every customer, and a customer's credentials without their secret hashes. */
export interface CustomerQueries {
  get(id: number): Promise<Customer | undefined>;
  /** Oldest first. */
  list(): Promise<Customer[]>;
  /** Oldest first; empty for a customer without credentials or one that does not exist. */
  credentialsOf(customerId: number): Promise<CredentialSummary[]>;
}
