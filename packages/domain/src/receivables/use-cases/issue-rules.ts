import { DomainError } from '../../shared/domain-error';
import type { ReceivableAccount } from '../../receivable-accounts/receivable-account';
import type { RouteSettlement } from '../../route-settlements/route-settlement';
import { Receivable, type NewReceivable, type ReceivableStatus } from '../receivable';
import { calendarDay } from '../calendar-day';
import type { IssueReceivableInput } from './issue-receivable';

/**
 * The rules of issuing one receivable that need nothing looked up, shared by the single creation and the batch
 * so that an item of a batch is answered exactly as it would have been alone.
 */

/** The account must take receivables (not DISABLED) in the item's currency. */
export function assertIssuable(account: ReceivableAccount, currencyCode: string): void {
  if (account.status === 'DISABLED') throw new DomainError('receivable-account-not-active', `receivable account ${account.id} is DISABLED`);
  const own = account.toSnapshot().currencyCode;
  if (currencyCode !== own) throw new DomainError('unmatching-receivable-currency-code', `currencyCode must be ${own}, the account's`);
}

/** A clientId given (and the customer's own) that is not the account's. */
export function unmatchingClient(own: number | null): DomainError {
  return new DomainError(
    'unmatching-receivable-client-id',
    own === null ? 'clientId must be left out: the account has no client' : `clientId must be the account's client (${own})`,
  );
}

/** An associateId given for an account bound to another one. */
export function associateConflict(current: number): DomainError {
  return new DomainError('receivable-account-associate-conflict', `associateId must be the account's associate (${current})`);
}

/** Grouping under the route settlement of the associate's route code, when one exists. */
export function routeSettlementIdOf(settlement: RouteSettlement | undefined, associateId: number | null): number | null {
  return settlement && settlement.associateId === associateId ? settlement.id : null;
}

/** What issuing settled before drafting: the account and its parties, the parent, the route settlement. */
export interface ResolvedIssue {
  readonly account: ReceivableAccount;
  readonly clientId: number | null;
  readonly associateId: number | null;
  readonly status: ReceivableStatus;
  readonly parentReceivableId: number | null;
  readonly routeSettlementId: number | null;
}

/** The new receivable of `input`, its own fields validated by the draft. */
export function draftOf(input: IssueReceivableInput, resolved: ResolvedIssue, now: Date): NewReceivable {
  return Receivable.draft(
    {
      customerId: input.customerId,
      receivableAccountId: resolved.account.id,
      clientId: resolved.clientId,
      associateId: resolved.associateId,
      amountMinor: input.amount.minor,
      currencyCode: 'ARS',
      receivableType: input.receivableType,
      legalNumber: input.legalNumber ?? null,
      description: input.description ?? null,
      externalRoutingCode: input.externalRoutingCode ?? null,
      issueDate: input.issueDate ?? null,
      dueDate: input.dueDate ?? null,
      receivableDate: input.receivableDate ?? calendarDay(now),
      parentReceivableId: resolved.parentReceivableId,
      attachmentUri: input.attachmentUri ?? null,
      invoiceData: input.invoiceData ?? null,
      routeSettlementId: resolved.routeSettlementId,
    },
    resolved.status,
    now,
  );
}
