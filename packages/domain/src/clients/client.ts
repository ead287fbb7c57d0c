import { DomainError } from '../shared/domain-error';
import { assertIdentityUnchanged } from '../shared/identity';
import { assertDocumentTypeFits, parseTaxId, type DocumentType } from '../shared/tax-id';
import { trimmedName } from '../shared/names';

/** What an integrator states about an end client; identity is (documentType, taxId, branchExternalCode). */
export interface ClientDetails {
  readonly businessName: string;
  readonly taxId: string;
  readonly documentType: DocumentType;
  readonly email: string | null;
  readonly branchExternalCode: string | null;
  readonly branchDescription: string | null;
  readonly branchReferenceAddress: string | null;
  readonly externalId: string | null;
}

export interface ClientSnapshot extends ClientDetails {
  readonly id: number;
  readonly customerId: number;
  readonly creationDate: Date;
  readonly modificationDate: Date;
  readonly version: number;
}

export type NewClient = Omit<ClientSnapshot, 'id'>;

/**
 * An end client (or one branch of it: a client with several branches is several clients sharing a taxId).
 * Identity fields never change after creation.
 */
export class Client {
  private constructor(private readonly state: ClientSnapshot) {}

  /** Validates a new client's details; the repository assigns the id. */
  static register(customerId: number, details: ClientDetails, now: Date): NewClient {
    return { ...normalizeDetails(details), customerId, creationDate: now, modificationDate: now, version: 1 };
  }

  static rehydrate(snapshot: ClientSnapshot): Client {
    return new Client(snapshot);
  }

  get id(): number {
    return this.state.id;
  }

  get customerId(): number {
    return this.state.customerId;
  }

  /** Full replacement of the editable details (PUT); identity fields must be sent unchanged. */
  replaceDetails(details: ClientDetails, now: Date): Client {
    const next = normalizeDetails(details);
    const { taxId, documentType, branchExternalCode } = next;
    assertIdentityUnchanged({ taxId, documentType, branchExternalCode }, this.state);
    return new Client({ ...this.state, ...next, modificationDate: now, version: this.state.version + 1 });
  }

  toSnapshot(): ClientSnapshot {
    return this.state;
  }
}

function normalizeDetails(details: ClientDetails): ClientDetails {
  const taxId = parseTaxId(details.taxId);
  assertDocumentTypeFits(taxId, details.documentType);
  const hasBranch = details.branchExternalCode !== null;
  const branchInfo = [details.branchDescription, details.branchReferenceAddress];
  // Blank is missing: a branch described by spaces alone is not described.
  if (hasBranch && branchInfo.some((v) => v === null || v.trim() === '')) {
    throw new DomainError('incomplete-branch', 'a client with branchExternalCode needs branchDescription and branchReferenceAddress');
  }
  if (!hasBranch && branchInfo.some((v) => v !== null)) {
    throw new DomainError('incomplete-branch', 'branchDescription and branchReferenceAddress need a branchExternalCode');
  }
  return { ...details, businessName: trimmedName(details.businessName, 'businessName'), taxId };
}
