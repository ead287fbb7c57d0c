import { InvalidStatusTransitionError } from '../shared/domain-error';

export type CredentialStatus =
  /** Can log in. */
  | 'ACTIVE'
  /** Revoked by an operator: login refused, its tokens refused. Final. */
  | 'REVOKED';

export type CredentialOperation = 'revoke';

/** The one table of legal moves. */
const TRANSITIONS: Readonly<Record<CredentialStatus, Partial<Record<CredentialOperation, CredentialStatus>>>> = {
  ACTIVE: { revoke: 'REVOKED' },
  REVOKED: {},
};

/** Each operation as an operator would say it, for the errors they read. */
const ASKED: Readonly<Record<CredentialOperation, string>> = {
  revoke: 'revoked',
};

export const CREDENTIAL_STATUSES = Object.keys(TRANSITIONS) as readonly CredentialStatus[];

/** A clientId/clientSecret pair issued to a customer, as stored. The secret exists only as a slow hash. */
export interface CredentialSnapshot {
  readonly id: number;
  readonly customerId: number;
  readonly clientId: string;
  readonly secretHash: string;
  readonly scopes: readonly string[];
  readonly status: CredentialStatus;
  readonly creationDate: Date;
}

/** A credential as an operator sees it: everything but the secret's hash, which never leaves storage. */
export type CredentialSummary = Omit<CredentialSnapshot, 'secretHash'>;

export type NewCredential = Omit<CredentialSnapshot, 'id'>;

/** A credential and what an operator may do to it. */
export class Credential {
  private constructor(
    private readonly state: CredentialSnapshot,
    /** The status it was read in: saving it is guarded on the row still being in it, so a stale move is refused. */
    readonly storedStatus: CredentialStatus,
  ) {}

  static rehydrate(snapshot: CredentialSnapshot): Credential {
    return new Credential(snapshot, snapshot.status);
  }

  static nextStatus(from: CredentialStatus, operation: CredentialOperation): CredentialStatus | undefined {
    return TRANSITIONS[from][operation];
  }

  get status(): CredentialStatus {
    return this.state.status;
  }

  toSnapshot(): CredentialSnapshot {
    return this.state;
  }

  revoke(): Credential {
    return this.move('revoke');
  }

  private move(operation: CredentialOperation): Credential {
    const status = Credential.nextStatus(this.state.status, operation);
    if (!status) throw new InvalidStatusTransitionError('credential', this.state.id, this.state.status, ASKED[operation]);
    return new Credential({ ...this.state, status }, this.storedStatus);
  }
}
