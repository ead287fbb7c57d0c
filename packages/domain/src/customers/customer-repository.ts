import type { Credential, Customer, NewCredential, NewCustomer } from './customer';

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
