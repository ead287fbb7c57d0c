import { DomainError } from '../shared/domain-error';

export const OWNER_TYPES = ['CLIENT', 'ASSOCIATE', 'CLIENT_AND_ASSOCIATE'] as const;
export type OwnerType = (typeof OWNER_TYPES)[number];

export interface AccountOwner {
  readonly clientId: number | null;
  readonly associateId: number | null;
}

/** The owner type follows from who owns the account; at least one of them must. */
export function ownerTypeOf(owner: AccountOwner): OwnerType {
  if (owner.clientId !== null && owner.associateId !== null) return 'CLIENT_AND_ASSOCIATE';
  if (owner.clientId !== null) return 'CLIENT';
  if (owner.associateId !== null) return 'ASSOCIATE';
  throw new DomainError('receivable-account-requires-owner', 'a receivable account needs a clientId, an associateId or both');
}
