import { jsonAmount as amount, type RouteSettlementRecord } from '@rcs/domain';

export function routeSettlementResponse({ settlement, summary }: RouteSettlementRecord) {
  return {
    id: settlement.id,
    routeCode: settlement.routeCode,
    date: settlement.date,
    associateId: settlement.associateId,
    receivableAccountIds: summary.receivableAccountIds,
    summary: {
      receivablesCount: summary.receivablesCount,
      totalAmount: amount(summary.totalAmountMinor),
      byReceivableType: summary.byReceivableType.map((t) => ({ type: t.type, count: t.count, amount: amount(t.amountMinor) })),
    },
    creationDate: settlement.creationDate.toISOString(),
  };
}
