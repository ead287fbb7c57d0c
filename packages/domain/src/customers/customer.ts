import { DEFAULT_ALIAS_TEMPLATE } from '../receivable-accounts/alias-template';
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
