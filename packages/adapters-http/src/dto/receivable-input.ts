import { Money, ValidationError, type IssueReceivableInput, type ReceivableEdits, type ReceivableListFilter } from '@rcs/domain';
import { commonFilterOf } from './list-query';
import type { ReceivableBody, ReceivableEditBody, ReceivableListQuery } from './receivable-dto';

export function issueInputOf(customerId: number, body: ReceivableBody): IssueReceivableInput {
  return { ...body, customerId, amount: Money.parse(body.amount, 'amount'), invoiceData: body.invoiceData ? { ...body.invoiceData } : body.invoiceData };
}

export function editsOf(body: ReceivableEditBody): ReceivableEdits {
  const { amount, legalNumber, description, externalRoutingCode, issueDate, dueDate, attachmentUri, invoiceData } = body;
  return {
    amountMinor: amount === undefined ? undefined : Money.parse(amount, 'amount').minor,
    legalNumber,
    description,
    externalRoutingCode,
    issueDate,
    dueDate,
    attachmentUri,
    invoiceData: invoiceData ? { ...invoiceData } : invoiceData,
  };
}

/** A decimal amount bound for a filter: like an amount, but 0 is allowed. */
function amountBound(value: string | undefined, name: string): bigint | undefined {
  if (value === undefined) return undefined;
  if (/^0(\.0+)?$/.test(value)) return 0n;
  try {
    return Money.parse(value, name).minor;
  } catch {
    throw ValidationError.of(name, 'must be a decimal amount with at most 2 decimals');
  }
}

export function receivableFilterOf(customerId: number, q: ReceivableListQuery): ReceivableListFilter {
  return {
    customerId,
    ...commonFilterOf(q),
    receivableAccountId: q.receivableAccountId,
    clientId: q.clientId,
    associateId: q.associateId,
    status: q.status,
    receivableType: q.receivableType,
    fromDueDate: q.fromDueDate,
    toDueDate: q.toDueDate,
    fromIssueDate: q.fromIssueDate,
    toIssueDate: q.toIssueDate,
    legalNumber: q.legalNumber,
    externalRoutingCode: q.externalRoutingCode,
    parentReceivableId: q.parentReceivableId,
    minAmountMinor: amountBound(q.minAmount, 'minAmount'),
    maxAmountMinor: amountBound(q.maxAmount, 'maxAmount'),
  };
}
