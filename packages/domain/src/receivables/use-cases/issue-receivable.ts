import type { Clock } from '../../shared/clock';
import type { Money } from '../../shared/money';
import { ownedBy } from '../../shared/owned';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { assertOwnClient, assertOwnerFree, assertUsableAssociate, receivingAccount } from '../../receivable-accounts/use-cases/account-parties';
import type { ReceivableAccount } from '../../receivable-accounts/receivable-account';
import type { InvoiceData } from '../invoice-data';
import { Receivable, type ReceivableStatus } from '../receivable';
import { isPositive, type ReceivableType } from '../receivable-type';
import { assertIssuable, associateConflict, draftOf, routeSettlementIdOf, unmatchingClient } from './issue-rules';

/** What issuing reaches: the receivable's account (bound to an associate on the way), its parties and parent. */
type IssueScope = Pick<TransactionScope, 'receivableAccounts' | 'currentAccounts' | 'clients' | 'associates' | 'receivables' | 'routeSettlements' | 'outbox'>;

export interface IssueReceivableInput {
  readonly customerId: number;
  readonly receivableAccountId: number;
  readonly amount: Money;
  readonly currencyCode: string;
  readonly receivableType: ReceivableType;
  readonly clientId?: number | null;
  readonly associateId?: number | null;
  readonly legalNumber?: string | null;
  readonly description?: string | null;
  readonly externalRoutingCode?: string | null;
  readonly issueDate?: string | null;
  readonly dueDate?: string | null;
  readonly receivableDate?: string | null;
  readonly parentReceivableId?: number | null;
  readonly attachmentUri?: string | null;
  readonly invoiceData?: InvoiceData | null;
}

/** POST /v1/receivables: every rule of SPEC "Receivable", in one transaction with its receivable.created event. */
export class IssueReceivable {
  constructor(
    private readonly uow: UnitOfWork<IssueScope>,
    private readonly clock: Clock,
  ) {}

  execute(input: IssueReceivableInput): Promise<Receivable> {
    return this.uow.run(async (tx) => {
      const now = this.clock.now();
      // No lock: issuing does not change the account, and locking it would queue every receivable of one account
      // behind the others. Binding an associate saves the account with a version check instead. The new row's id
      // is asked for with the account: the insert then needs no answer before the event is built.
      const [account, id] = await Promise.all([receivingAccount(tx, input.customerId, input.receivableAccountId, 'read'), tx.receivables.newId()]);
      assertIssuable(account, input.currencyCode);
      const clientId = await this.client(tx, input, account);
      const associateId = await this.associate(tx, input, account);
      const [status, parentReceivableId] = await this.parent(tx, input);
      const routeSettlementId = await this.route(tx, input.customerId, associateId, input.externalRoutingCode ?? null);
      const draft = draftOf(input, { account, clientId, associateId, status, parentReceivableId, routeSettlementId }, now);
      const stored = await tx.receivables.insert(draft, id);
      await tx.outbox.record([Receivable.created(stored.toSnapshot())]);
      return stored;
    });
  }

  /** Inherited from the account when omitted; one given must be the account's, and first the customer's own (404, 403). */
  private async client(tx: IssueScope, input: IssueReceivableInput, account: ReceivableAccount): Promise<number | null> {
    const own = account.owner.clientId;
    if (input.clientId === undefined || input.clientId === null || input.clientId === own) return own;
    await assertOwnClient(tx, input.customerId, input.clientId);
    throw unmatchingClient(own);
  }

  /**
   * The operator registering the receivable: none when omitted (unlike clientId, it is not inherited). It must be
   * ACTIVE, bound to the account already or not (SPEC: operations on a DISABLED associate are refused). One given
   * for an account without an associate is bound to the account now (SPEC); another than the account's is refused.
   */
  private async associate(tx: IssueScope, input: IssueReceivableInput, read: ReceivableAccount): Promise<number | null> {
    if (input.associateId === undefined || input.associateId === null) return null;
    // Binding changes the account: read it again under lock, so concurrent receivables binding the same associate
    // wait for the first and find it bound, rather than failing its version check.
    const account = read.owner.associateId === null ? await receivingAccount(tx, input.customerId, read.id, 'lock') : read;
    await assertUsableAssociate(tx, input.customerId, input.associateId);
    const current = account.owner.associateId;
    if (input.associateId === current) return current;
    if (current !== null) throw associateConflict(current);
    await assertOwnerFree(tx, input.customerId, { clientId: account.owner.clientId, associateId: input.associateId });
    const bound = account.update({ associateId: input.associateId }, this.clock.now());
    await tx.receivableAccounts.update(bound);
    return input.associateId;
  }

  /**
   * A negative type's parent: the customer's own, admitting the child by rules 2 and 3. Rule 1 (which types name a
   * parent) is the draft's, so nothing is looked up for a positive type or a missing id.
   */
  private async parent(tx: IssueScope, input: IssueReceivableInput): Promise<[ReceivableStatus, number | null]> {
    const parentId = input.parentReceivableId ?? null;
    if (parentId === null || isPositive(input.receivableType)) return ['PENDING', parentId];
    const parent = ownedBy(await tx.receivables.getForUpdate(parentId), input.customerId, 'parent receivable', parentId);
    const status = parent.admitChild(
      { receivableAccountId: input.receivableAccountId, amountMinor: input.amount.minor },
      await tx.receivables.activeChildren(parentId),
    );
    return [status, parentId];
  }

  /** Grouping under the route settlement of the associate's route code, when one exists. */
  private async route(tx: IssueScope, customerId: number, associateId: number | null, code: string | null): Promise<number | null> {
    if (associateId === null || code === null) return null;
    return routeSettlementIdOf(await tx.routeSettlements.findByCode(customerId, code), associateId);
  }
}
