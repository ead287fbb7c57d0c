import { DEFAULT_ALIAS_TEMPLATE } from '../receivable-accounts/alias-template';
import { ValidationError } from '../shared/domain-error';
import { OWNER_TYPES, type OwnerType } from '../receivable-accounts/owner';

/** A tenant of the service: an integrator whose credentials act for it. */
export interface Customer {
  readonly id: number;
  readonly name: string;
  /** Transfers wait in PENDING_APPROVAL for a second credential (four eyes). */
  readonly approvalControl: boolean;
  /** Receivable account owner types this customer's operating model allows. */
  readonly enabledOwnerTypes: readonly OwnerType[];
  /** How aliases of its receivable accounts are generated (see alias-template.ts). */
  readonly aliasTemplate: string;
  readonly creationDate: Date;
}

export type NewCustomer = Omit<Customer, 'id'>;

/** Settings of a customer created without other instructions: every owner type, default alias template. */
export const DEFAULT_CUSTOMER_SETTINGS = {
  approvalControl: false,
  enabledOwnerTypes: OWNER_TYPES as readonly OwnerType[],
  aliasTemplate: DEFAULT_ALIAS_TEMPLATE,
} as const;

/** Owner types as given, each once in OWNER_TYPES' order; at least one, every one when none is given. */
export function ownerTypesOf(given: readonly string[] | null | undefined): readonly OwnerType[] {
  // An embedder's null as well as a list left out.
  if (given === undefined || given === null) return DEFAULT_CUSTOMER_SETTINGS.enabledOwnerTypes;
  if (!Array.isArray(given)) throw ValidationError.of('enabledOwnerTypes', 'must be a list of owner types');
  const types: readonly unknown[] = given;
  const unknown = types.filter((type) => !(OWNER_TYPES as readonly unknown[]).includes(type));
  if (unknown.length > 0) throw ValidationError.of('enabledOwnerTypes', `unknown owner types: ${unknown.join(', ')} (known: ${OWNER_TYPES.join(', ')})`);
  if (types.length === 0) throw ValidationError.of('enabledOwnerTypes', 'must name at least one owner type');
  return OWNER_TYPES.filter((type) => types.includes(type));
}
