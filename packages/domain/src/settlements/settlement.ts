import type { CurrencyCode } from '../shared/money';
import { jsonAmount } from '../shared/exact-json';

/** One sweep of a receivable account's collected funds into the customer's MAIN current account. */
export interface Settlement {
  readonly id: number;
  readonly customerId: number;
  readonly receivableAccountId: number;
  readonly currentAccountId: number;
  readonly amountMinor: bigint;
  readonly currencyCode: CurrencyCode;
  readonly receivableIds: readonly number[];
  readonly settlementDate: Date;
  readonly creationDate: Date;
}

export function settlementView(s: Settlement) {
  return {
    id: s.id,
    receivableAccountId: s.receivableAccountId,
    currentAccountId: s.currentAccountId,
    amount: jsonAmount(s.amountMinor),
    currencyCode: s.currencyCode,
    receivablesCount: s.receivableIds.length,
    receivableIds: s.receivableIds,
    settlementDate: s.settlementDate.toISOString(),
    creationDate: s.creationDate.toISOString(),
  };
}

/** A settlement as `settle` opens it: the receivables it settled are streamed apart (settledReceivables). */
export type OpenedSettlement = Omit<Settlement, 'receivableIds'>;
