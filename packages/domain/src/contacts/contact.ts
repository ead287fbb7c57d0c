import { DomainError } from '../shared/domain-error';
import { parseCbuCvu } from '../shared/bank-account-number';
import { parseTaxId } from '../shared/tax-id';
import { trimmedName } from '../shared/names';

/** Where a recipient's money goes, once resolved: the account, the alias it was given by (if any), who keeps it. */
export interface ContactDestination {
  readonly cbuCvu: string;
  readonly alias: string | null;
  /** The bank or wallet behind the account, reported by the service (read-only on the wire). */
  readonly entity: string;
}

export interface ContactDetails {
  /** Name or legal name. */
  readonly name: string;
  readonly taxId: string;
}

export interface ContactSnapshot extends ContactDetails, ContactDestination {
  readonly id: number;
  readonly customerId: number;
  readonly creationDate: Date;
  readonly modificationDate: Date;
  readonly version: number;
}

export type NewContact = Omit<ContactSnapshot, 'id'>;

/**
 * 409: the customer already has a recipient with this CBU/CVU or alias (alias in any letter case). existingResourceId
 * names it, so a caller saving a recipient again finds the one it has; absent only when the holder could not be read
 * (a replacement racing a save that has not committed yet).
 */
export class DuplicatedContactError extends DomainError {
  constructor(field: 'cbuCvu' | 'alias', existingId?: number) {
    const holder = existingId === undefined ? 'another recipient' : `recipient ${existingId}`;
    super('duplicated-contact', `${holder} already has this ${field}`, existingId === undefined ? {} : { existingResourceId: existingId });
  }
}

/**
 * A recipient (contact): a saved destination of a customer's transfers. It has no states: it is created, replaced
 * whole and deleted; transfers copy its destination, so changing or deleting it never touches a transfer.
 */
export class Contact {
  private constructor(private readonly state: ContactSnapshot) {}

  /** Validates a new recipient; the repository assigns the id and enforces one CBU/CVU and one alias per customer. */
  static create(customerId: number, details: ContactDetails, destination: ContactDestination, now: Date): NewContact {
    return { ...normalized(details, destination), customerId, creationDate: now, modificationDate: now, version: 1 };
  }

  static rehydrate(snapshot: ContactSnapshot): Contact {
    return new Contact(snapshot);
  }

  get id(): number {
    return this.state.id;
  }

  get customerId(): number {
    return this.state.customerId;
  }

  /** PUT: every field is replaced, the destination too (an alias left out is dropped). */
  replace(details: ContactDetails, destination: ContactDestination, now: Date): Contact {
    return new Contact({ ...this.state, ...normalized(details, destination), modificationDate: now, version: this.state.version + 1 });
  }

  toSnapshot(): ContactSnapshot {
    return this.state;
  }
}

function normalized(details: ContactDetails, destination: ContactDestination): ContactDetails & ContactDestination {
  return {
    name: trimmedName(details.name, 'name'),
    taxId: parseTaxId(details.taxId),
    cbuCvu: parseCbuCvu(destination.cbuCvu),
    alias: destination.alias,
    entity: destination.entity,
  };
}
