/** A tenant of the service: an integrator whose credentials act for it. */
export interface Customer {
  readonly id: number;
  readonly name: string;
  /** Transfers wait in PENDING_APPROVAL for a second credential (four eyes). */
  readonly approvalControl: boolean;
  readonly creationDate: Date;
}

export type CredentialStatus =
  /** Can log in. */
  | 'ACTIVE'
  /** Revoked by an operator: login refused. */
  | 'REVOKED';

/** A clientId/clientSecret pair issued to a customer. The secret exists only as a slow hash. */
export interface Credential {
  readonly id: number;
  readonly customerId: number;
  readonly clientId: string;
  readonly secretHash: string;
  readonly scopes: readonly string[];
  readonly status: CredentialStatus;
  readonly creationDate: Date;
}

export type NewCustomer = Omit<Customer, 'id'>;
export type NewCredential = Omit<Credential, 'id'>;
