import { jsonAmount as amount, movementView, settlementView, type CurrentAccountRecord, type Movement, type Settlement } from '@rcs/domain';

export function currentAccountResponse({ account }: CurrentAccountRecord) {
  return {
    id: account.id,
    accountType: account.accountType,
    cvu: account.cvu,
    alias: account.alias,
    currencyCode: account.currencyCode,
    status: account.status,
    lastSettlementDate: account.lastSettlementDate?.toISOString() ?? null,
    creationDate: account.creationDate.toISOString(),
    modificationDate: account.modificationDate.toISOString(),
  };
}

export function balancesResponse(b: { currentAccountId: number; currencyCode: string; cvuMinor: bigint; cashMinor: bigint; cvuTaxMinor: bigint; asOf: Date }) {
  return {
    currentAccountId: b.currentAccountId,
    currencyCode: b.currencyCode,
    totalBalance: amount(b.cvuMinor + b.cashMinor + b.cvuTaxMinor),
    balanceByWallet: { CVU: amount(b.cvuMinor), CASH: amount(b.cashMinor), CVU_TAX: amount(b.cvuTaxMinor) },
    asOf: b.asOf.toISOString(),
  };
}

export const settlementRunResponse = (r: { settlements: number; settledReceivables: number; settledAmountMinor: bigint }) => ({
  settlements: r.settlements,
  settledReceivables: r.settledReceivables,
  settledAmount: amount(r.settledAmountMinor),
});

export const movementResponse = (m: Movement) => movementView(m);

export const settlementResponse = (s: Settlement) => settlementView(s);
