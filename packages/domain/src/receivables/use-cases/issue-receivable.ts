import type { Clock } from '../../shared/clock';
import type { Money } from '../../shared/money';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { customerOf, receivingAccount } from '../../receivable-accounts/use-cases/account-parties';
import type { AccountOwner } from '../../receivable-accounts/owner';
import type { ReceivableAccount } from '../../receivable-accounts/receivable-account';
import type { InvoiceData } from '../invoice-data';
import { Receivable } from '../receivable';
import type { ReceivableType } from '../receivable-type';
import { checkIssue, type IssueLookups } from './issue-rules';

/** What issuing reaches: the receivable's account (bound to an associate on the way), its parties and parent. */
type IssueScope = Pick<
  TransactionScope,
  'customers' | 'receivableAccounts' | 'currentAccounts' | 'clients' | 'associates' | 'receivables' | 'routeSettlements' | 'outbox'
>;

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
      // The new row's id is asked for with the first lookup: the insert then needs no answer before the event is
      // built. Both settle before either fails the run, so no statement of the walk outlives the transaction; a
      // failed id goes first, since the walk's own statements then fail only because it aborted the transaction.
      const [checked, id] = await Promise.allSettled([checkIssue(new TransactionLookups(tx), input, this.clock.now()), tx.receivables.newId()]);
      if (id.status === 'rejected') throw id.reason;
      if (checked.status === 'rejected') throw checked.reason;
      const { draft, bound } = checked.value;
      if (bound) await tx.receivableAccounts.update(bound);
      const stored = await tx.receivables.insert(draft, id.value);
      await tx.outbox.record([Receivable.created(stored.toSnapshot())]);
      return stored;
    });
  }
}

/** What a single creation checks against, looked up in its transaction as each rule asks. */
class TransactionLookups implements IssueLookups {
  constructor(private readonly tx: IssueScope) {}

  // No lock: issuing does not change the account, and locking it would queue every receivable of one account
  // behind the others. Binding an associate saves the account with a version check instead.
  account(customerId: number, accountId: number): Promise<ReceivableAccount> {
    return receivingAccount(this.tx, customerId, accountId, 'read');
  }

  accountToBind(customerId: number, account: ReceivableAccount): Promise<ReceivableAccount> {
    return receivingAccount(this.tx, customerId, account.id, 'lock');
  }

  client(clientId: number) {
    return this.tx.clients.getForUpdate(clientId);
  }

  associate(associateId: number) {
    return this.tx.associates.getForShare(associateId);
  }

  accountOfOwner(customerId: number, owner: AccountOwner) {
    return this.tx.receivableAccounts.findByOwner(customerId, owner, 'ARS');
  }

  customer(customerId: number) {
    return customerOf(this.tx, customerId);
  }

  holdForChild(accountId: number) {
    return this.tx.receivableAccounts.holdAgainstSettlement(accountId);
  }

  parent(parentId: number) {
    return this.tx.receivables.getForUpdate(parentId);
  }

  activeChildren(parentId: number) {
    return this.tx.receivables.activeChildren(parentId);
  }

  routeSettlement(customerId: number, code: string) {
    return this.tx.routeSettlements.findByCode(customerId, code);
  }
}
