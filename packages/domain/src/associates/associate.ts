import { DomainError, ValidationError } from '../shared/domain-error';
import { parseTaxId } from '../shared/tax-id';
import { trimmedName } from '../shared/names';

export type AssociateStatus =
  /** Can register receivables, own accounts and settle routes. */
  | 'ACTIVE'
  /** Soft-deleted: every operation on it answers associate-disabled until it is activated again. */
  | 'DISABLED';

export type AssociateOperation = 'update' | 'disable' | 'activate';

/** The one table of legal moves: which operation each status allows, and where it leads. */
const TRANSITIONS: Readonly<Record<AssociateStatus, Partial<Record<AssociateOperation, AssociateStatus>>>> = {
  ACTIVE: { update: 'ACTIVE', disable: 'DISABLED' },
  DISABLED: { activate: 'ACTIVE' },
};

export const ASSOCIATE_STATUSES = Object.keys(TRANSITIONS) as readonly AssociateStatus[];

export interface AssociateDetails {
  /** Free-form (DRIVER, DISTRIBUTOR, STUDENT, ...): not a closed enum, so new roles need no release. */
  readonly type: string;
  readonly name: string;
  readonly lastName: string;
  readonly taxId: string;
  readonly documentNumber: string;
  readonly email: string;
  readonly phone: string;
  readonly address: string | null;
  readonly parentAssociateId: number | null;
}

export interface AssociateSnapshot extends AssociateDetails {
  readonly id: number;
  readonly customerId: number;
  readonly status: AssociateStatus;
  readonly creationDate: Date;
  readonly modificationDate: Date;
  readonly version: number;
}

export type NewAssociate = Omit<AssociateSnapshot, 'id'>;

/** An individual operator of the customer (driver, distributor, student, guardian, member). */
export class Associate {
  private constructor(private readonly state: AssociateSnapshot) {}

  static register(customerId: number, details: AssociateDetails, now: Date): NewAssociate {
    return {
      ...normalized(details),
      customerId,
      status: 'ACTIVE',
      creationDate: now,
      modificationDate: now,
      version: 1,
    };
  }

  static rehydrate(snapshot: AssociateSnapshot): Associate {
    return new Associate(snapshot);
  }

  /** The status an operation leads to from `from`, or undefined when the table forbids it. */
  static nextStatus(from: AssociateStatus, operation: AssociateOperation): AssociateStatus | undefined {
    return TRANSITIONS[from][operation];
  }

  get id(): number {
    return this.state.id;
  }

  get customerId(): number {
    return this.state.customerId;
  }

  get status(): AssociateStatus {
    return this.state.status;
  }

  replaceDetails(details: AssociateDetails, now: Date): Associate {
    const next = normalized(details);
    if (next.taxId !== this.state.taxId) throw ValidationError.of('taxId', 'cannot change after creation');
    if (details.parentAssociateId === this.state.id) {
      throw ValidationError.of('parentAssociateId', 'an associate cannot be its own parent');
    }
    return this.move('update', next, now);
  }

  disable(now: Date): Associate {
    return this.move('disable', {}, now);
  }

  activate(now: Date): Associate {
    return this.move('activate', {}, now);
  }

  toSnapshot(): AssociateSnapshot {
    return this.state;
  }

  private move(operation: AssociateOperation, changes: Partial<AssociateDetails>, now: Date): Associate {
    const status = Associate.nextStatus(this.state.status, operation);
    if (!status) {
      if (this.state.status === 'DISABLED') {
        throw new DomainError('associate-disabled', `associate ${this.state.id} is DISABLED; activate it first`);
      }
      throw new DomainError('invalid-status-transition', `associate ${this.state.id} is already ${this.state.status}`);
    }
    return new Associate({
      ...this.state,
      ...changes,
      status,
      modificationDate: now,
      version: this.state.version + 1,
    });
  }
}

function normalized(details: AssociateDetails): AssociateDetails {
  return {
    ...details,
    type: trimmedName(details.type, 'type'),
    name: trimmedName(details.name, 'name'),
    lastName: trimmedName(details.lastName, 'lastName'),
    taxId: parseTaxId(details.taxId),
  };
}
