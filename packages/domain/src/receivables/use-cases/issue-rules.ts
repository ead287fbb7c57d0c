import { DomainError } from '../../shared/domain-error';
import { ownedBy } from '../../shared/owned';
import type { Associate } from '../../associates/associate';
import type { Client } from '../../clients/client';
import type { AccountOwner } from '../../receivable-accounts/owner';
import type { ReceivableAccount } from '../../receivable-accounts/receivable-account';
import { alreadyExists, assertOwnerTypeEnabled, usableAssociate } from '../../receivable-accounts/use-cases/account-parties';
import type { Customer } from '../../customers/customer';
import type { RouteSettlement } from '../../route-settlements/route-settlement';
import { Receivable, type NewReceivable, type ReceivableStatus } from '../receivable';
import { isPositive } from '../receivable-type';
import { calendarDay } from '../calendar-day';
import type { IssueReceivableInput } from './issue-receivable';

/**
 * What checking one receivable reads, as each caller reads it: a single creation looks each thing up in its
 * transaction; a batch finds it in what it read once for all its items and in what its earlier items issued, so
 * that an item of a batch is answered exactly as it would have been alone.
 */
export interface IssueLookups {
  /** The customer's own receiving account, or its refusal (404, 403; 422 naming a current account). */
  account(customerId: number, accountId: number): Promise<ReceivableAccount>;
  /** The account again under lock, before an associate is bound to it: concurrent binders wait for the first. */
  accountToBind(customerId: number, account: ReceivableAccount): Promise<ReceivableAccount>;
  client(clientId: number): Promise<Client | undefined>;
  /** Kept from changing until the transaction ends. */
  associate(associateId: number): Promise<Associate | undefined>;
  accountOfOwner(customerId: number, owner: AccountOwner): Promise<ReceivableAccount | undefined>;
  /** The customer, for its enabled owner types when an associate is bound. */
  customer(customerId: number): Promise<Customer>;
  /** The account of a child, kept from being settled until the child is stored (holdAgainstSettlement). */
  holdForChild(accountId: number): Promise<void>;
  /** Locked, with its children, so that their sum cannot change under the check. */
  parent(parentId: number): Promise<Receivable | undefined>;
  activeChildren(parentId: number): Promise<ReadonlyArray<{ readonly amountMinor: bigint }>>;
  routeSettlement(customerId: number, code: string): Promise<RouteSettlement | undefined>;
}

/** One receivable checked: its draft, and its account with the item's associate bound, to save before it. */
export interface CheckedIssue {
  readonly draft: NewReceivable;
  readonly bound?: ReceivableAccount;
}

/** Every rule of SPEC "Receivable" for one receivable, in one order, on what `lookups` reads. */
export async function checkIssue(lookups: IssueLookups, input: IssueReceivableInput, now: Date): Promise<CheckedIssue> {
  const account = await lookups.account(input.customerId, input.receivableAccountId);
  assertIssuable(account, input.currencyCode);
  const clientId = await clientOf(lookups, input, account);
  const { associateId, bound } = await associateOf(lookups, input, account, now);
  const [status, parentReceivableId] = await parentOf(lookups, input);
  const code = input.externalRoutingCode ?? null;
  const routeSettlementId =
    associateId === null || code === null ? null : routeSettlementIdOf(await lookups.routeSettlement(input.customerId, code), associateId);
  return { draft: draftOf(input, { account, clientId, associateId, status, parentReceivableId, routeSettlementId }, now), ...(bound ? { bound } : {}) };
}

/** Inherited from the account when omitted; one given must be the account's, and first the customer's own (404, 403). */
async function clientOf(lookups: IssueLookups, input: IssueReceivableInput, account: ReceivableAccount): Promise<number | null> {
  const own = account.owner.clientId;
  if (input.clientId === undefined || input.clientId === null || input.clientId === own) return own;
  ownedBy(await lookups.client(input.clientId), input.customerId, 'client', input.clientId);
  throw unmatchingClient(own);
}

/**
 * The operator registering the receivable: none when omitted (unlike clientId, it is not inherited). It must be
 * ACTIVE, bound to the account already or not (SPEC: operations on a DISABLED associate are refused). One given
 * for an account without an associate is bound to the account now (SPEC); another than the account's is refused.
 */
async function associateOf(
  lookups: IssueLookups,
  input: IssueReceivableInput,
  read: ReceivableAccount,
  now: Date,
): Promise<{ associateId: number | null; bound?: ReceivableAccount }> {
  if (input.associateId === undefined || input.associateId === null) return { associateId: null };
  const account = read.owner.associateId === null ? await lookups.accountToBind(input.customerId, read) : read;
  usableAssociate(await lookups.associate(input.associateId), input.customerId, input.associateId);
  const current = account.owner.associateId;
  if (input.associateId === current) return { associateId: current };
  if (current !== null) throw associateConflict(current);
  const owner = { clientId: account.owner.clientId, associateId: input.associateId };
  assertOwnerTypeEnabled(await lookups.customer(input.customerId), owner);
  const existing = await lookups.accountOfOwner(input.customerId, owner);
  if (existing) throw alreadyExists(existing);
  return { associateId: input.associateId, bound: account.update({ associateId: input.associateId }, now) };
}

/**
 * A negative type's parent: the customer's own, admitting the child by rules 2 and 3. Rule 1 (which types name a
 * parent) is the draft's, so nothing is looked up for a positive type or a missing id.
 */
async function parentOf(lookups: IssueLookups, input: IssueReceivableInput): Promise<[ReceivableStatus, number | null]> {
  const parentId = input.parentReceivableId ?? null;
  if (parentId === null || isPositive(input.receivableType)) return ['PENDING', parentId];
  await lookups.holdForChild(input.receivableAccountId);
  const parent = ownedBy(await lookups.parent(parentId), input.customerId, 'parent receivable', parentId);
  const status = parent.admitChild({ receivableAccountId: input.receivableAccountId, amountMinor: input.amount.minor }, await lookups.activeChildren(parentId));
  return [status, parentId];
}

/** The account must take receivables (not DISABLED) in the item's currency. */
function assertIssuable(account: ReceivableAccount, currencyCode: string): void {
  if (account.status === 'DISABLED') throw new DomainError('receivable-account-not-active', `receivable account ${account.id} is DISABLED`);
  const own = account.toSnapshot().currencyCode;
  if (currencyCode !== own) throw new DomainError('unmatching-receivable-currency-code', `currencyCode must be ${own}, the account's`);
}

/** A clientId given (and the customer's own) that is not the account's. */
function unmatchingClient(own: number | null): DomainError {
  return new DomainError(
    'unmatching-receivable-client-id',
    own === null ? 'clientId must be left out: the account has no client' : `clientId must be the account's client (${own})`,
  );
}

/** An associateId given for an account bound to another one. */
function associateConflict(current: number): DomainError {
  return new DomainError('receivable-account-associate-conflict', `associateId must be the account's associate (${current})`);
}

/** Grouping under the route settlement of the associate's route code, when one exists. */
/**
 * The route settlement a receivable is grouped under (SPEC: registered by the associate with its routeCode as
 * externalRoutingCode, after the route settlement exists): on issue, and again when the code is edited.
 */
export function routeSettlementIdOf(settlement: RouteSettlement | undefined, associateId: number | null): number | null {
  return settlement && settlement.associateId === associateId ? settlement.id : null;
}

/** What issuing settled before drafting: the account and its parties, the parent, the route settlement. */
interface ResolvedIssue {
  readonly account: ReceivableAccount;
  readonly clientId: number | null;
  readonly associateId: number | null;
  readonly status: ReceivableStatus;
  readonly parentReceivableId: number | null;
  readonly routeSettlementId: number | null;
}

/** The new receivable of `input`, its own fields validated by the draft. */
function draftOf(input: IssueReceivableInput, resolved: ResolvedIssue, now: Date): NewReceivable {
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
