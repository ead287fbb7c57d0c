import type { CurrencyCode } from '../shared/money';

export type CurrentAccountType =
  /** Receives the bulk of settlements. */
  | 'MAIN'
  /** Operating sub-account. */
  | 'SUB';

export type CurrentAccountStatus = 'ACTIVE' | 'DISABLED';

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
