import type { CurrencyCode } from '../shared/money';

export const CURRENT_ACCOUNT_TYPES = [
  /** Receives the bulk of settlements. */
  'MAIN',
  /** Operating sub-account. */
  'SUB',
] as const;
export type CurrentAccountType = (typeof CURRENT_ACCOUNT_TYPES)[number];

export const CURRENT_ACCOUNT_STATUSES = ['ACTIVE', 'DISABLED'] as const;
export type CurrentAccountStatus = (typeof CURRENT_ACCOUNT_STATUSES)[number];

/** A customer's own account: funded only by settlements, the source of transfers. Read-only through the API. */
export interface CurrentAccount {
  readonly id: number;
  readonly customerId: number;
  readonly accountType: CurrentAccountType;
  readonly cvu: string;
  readonly alias: string;
  readonly currencyCode: CurrencyCode;
  readonly status: CurrentAccountStatus;
  readonly lastSettlementDate: Date | null;
  readonly creationDate: Date;
  readonly modificationDate: Date;
}
