import { DomainError } from '../../shared/domain-error';
import type { BatchOutcome } from '../../shared/batch';
import type { Clock } from '../../shared/clock';
import { retryingLostRaces } from '../../shared/lost-races';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { customerOf, ownReceivingAccount } from '../../receivable-accounts/use-cases/account-parties';
import type { AccountOwner } from '../../receivable-accounts/owner';
import type { ReceivableAccount } from '../../receivable-accounts/receivable-account';
import { Receivable, type NewReceivable } from '../receivable';
import { duplicatedLegalNumber } from '../receivable-repository';
import { loadReferences, type BatchReferences } from './batch-references';
import type { IssueReceivableInput } from './issue-receivable';
import { checkIssue, type IssueLookups } from './issue-rules';

type BatchScope = Pick<
  TransactionScope,
  'customers' | 'receivableAccounts' | 'currentAccounts' | 'clients' | 'associates' | 'receivables' | 'routeSettlements' | 'outbox'
>;

/** What earlier items of the batch did, as later ones would have seen it had each been posted alone, in order. */
interface Issued {
  /** Accounts as they stand: bound to an associate by an earlier item, or as the references read them. */
  readonly accounts: Map<number, ReceivableAccount>;
  /** Amounts of the children issued under each parent. */
  readonly children: Map<number, bigint[]>;
  readonly legalNumbers: Set<string>;
}

/**
 * POST /v1/receivables/batches, set-based: every item is checked against references read once for the whole
 * batch (SPEC's rules in the order a single creation applies them, each item seeing what earlier ones issued),
 * then the accepted ones are stored with one insert and their receivable.created events with another. An item
 * that fails gets its error and leaves no trace; the others are created, each answered as if posted alone.
 */
export class IssueReceivablesBatch {
  constructor(
    private readonly uow: UnitOfWork<BatchScope>,
    private readonly clock: Clock,
  ) {}

  async execute(input: { items: ReadonlyArray<IssueReceivableInput | DomainError> }): Promise<BatchOutcome<Receivable>[]> {
    // A lost race: a concurrent writer committed a legalNumber after this batch checked it (the retry sees it
    // stored, and answers that item 409), or chose this batch as a deadlock's victim.
    return retryingLostRaces(
      this.uow,
      () => this.uow.begin((uow) => uow.run((tx) => this.issue(uow, tx, input.items))),
      (error) => error instanceof RaceLost,
    );
  }

  private async issue(
    uow: UnitOfWork<BatchScope>,
    tx: BatchScope,
    items: ReadonlyArray<IssueReceivableInput | DomainError>,
  ): Promise<BatchOutcome<Receivable>[]> {
    const now = this.clock.now();
    const parsed = items.filter((item): item is IssueReceivableInput => !(item instanceof DomainError));
    const customerId = parsed[0]?.customerId;
    if (parsed.some((item) => item.customerId !== customerId)) throw new Error("a batch holds one customer's receivables");
    const references = customerId === undefined ? undefined : await loadReferences(tx, customerId, parsed);
    const issued: Issued = { accounts: new Map(references?.accounts), children: new Map(), legalNumbers: new Set() };
    const outcomes: Array<NewReceivable | DomainError> = [];
    for (const item of items) {
      if (item instanceof DomainError) {
        outcomes.push(item);
        continue;
      }
      try {
        // An item that parsed means references were read.
        outcomes.push(await this.check(uow, tx, item, references!, issued, now));
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        outcomes.push(error);
      }
    }
    const stored = await this.store(
      tx,
      outcomes.filter((outcome): outcome is NewReceivable => !(outcome instanceof DomainError)),
    );
    return outcomes.map((outcome, index) => (outcome instanceof DomainError ? { index, error: outcome } : { index, value: stored.shift()! }));
  }

  /** One item's rules, as IssueReceivable checks them; accepted, what it issued is recorded for the items after it. */
  private async check(
    uow: UnitOfWork<BatchScope>,
    tx: BatchScope,
    item: IssueReceivableInput,
    references: BatchReferences,
    issued: Issued,
    now: Date,
  ): Promise<NewReceivable> {
    const { draft, bound } = await checkIssue(new BatchLookups(tx, references, issued), item, now);
    const legalNumber = draft.legalNumber;
    if (legalNumber !== null && (references.legalNumbersInUse.has(legalNumber) || issued.legalNumbers.has(legalNumber))) {
      throw duplicatedLegalNumber(legalNumber);
    }
    if (bound) await bind(uow, bound, issued);
    if (legalNumber !== null) issued.legalNumbers.add(legalNumber);
    // Past the draft's rule 1, an item with a parent is a negative one, which the parent's sum counts.
    const parentId = draft.parentReceivableId;
    if (parentId !== null) issued.children.set(parentId, [...(issued.children.get(parentId) ?? []), draft.amountMinor]);
    return draft;
  }

  private async store(tx: BatchScope, drafts: readonly NewReceivable[]): Promise<Receivable[]> {
    if (drafts.length === 0) return [];
    let stored: Receivable[];
    try {
      stored = await tx.receivables.insertMany(drafts);
    } catch (error) {
      throw error instanceof DomainError && error.code === 'duplicated-legal-number' ? new RaceLost(error) : error;
    }
    await tx.outbox.record(stored.map((receivable) => Receivable.created(receivable.toSnapshot())));
    return stored;
  }
}

/** Saves a binding at once, on its own (a savepoint): a clash with a concurrent one is this item's answer, not the batch's. */
async function bind(uow: UnitOfWork<BatchScope>, bound: ReceivableAccount, issued: Issued): Promise<void> {
  await uow.isolated(() => uow.run((tx) => tx.receivableAccounts.update(bound)));
  issued.accounts.set(bound.id, bound);
}

/**
 * What an item checks against: the references read once for the batch, as the items before it left them (an
 * account they bound, the children they issued). Binding is rare in bulk, and a bound account is what the items
 * after it see, so an account is read again under lock, and checked for a free owner, by itself as a single
 * creation would.
 */
class BatchLookups implements IssueLookups {
  constructor(
    private readonly tx: BatchScope,
    private readonly references: BatchReferences,
    private readonly issued: Issued,
  ) {}

  account(customerId: number, accountId: number): Promise<ReceivableAccount> {
    return Promise.resolve(ownReceivingAccount(this.issued.accounts.get(accountId), customerId, accountId, this.references.currentAccounts.get(accountId)));
  }

  // Every account an item binds to was read again under lock with the batch's references, before any parent.
  accountToBind(_customerId: number, read: ReceivableAccount): Promise<ReceivableAccount> {
    return Promise.resolve(read);
  }

  client(clientId: number) {
    return Promise.resolve(this.references.clients.get(clientId));
  }

  associate(associateId: number) {
    return Promise.resolve(this.references.associates.get(associateId));
  }

  accountOfOwner(customerId: number, owner: AccountOwner) {
    return this.tx.receivableAccounts.findByOwner(customerId, owner, 'ARS');
  }

  // Binding is rare in bulk: read when an item binds, as a single creation does.
  customer(customerId: number) {
    return customerOf(this.tx, customerId);
  }

  // Locked for every item naming a parent when the batch's references were read, before the parents were.
  holdForChild() {
    return Promise.resolve();
  }

  parent(parentId: number) {
    return Promise.resolve(this.references.families.get(parentId)?.parent);
  }

  activeChildren(parentId: number) {
    const issuedBefore = (this.issued.children.get(parentId) ?? []).map((amountMinor) => ({ amountMinor }));
    return Promise.resolve([...(this.references.families.get(parentId)?.activeChildren ?? []), ...issuedBefore]);
  }

  routeSettlement(_customerId: number, code: string) {
    return Promise.resolve(this.references.routeSettlements.get(code));
  }
}

/** The batch's insert met a legalNumber stored since its check: the attempt is undone and made again. */
class RaceLost extends Error {
  constructor(cause: DomainError) {
    super('a legalNumber was stored by a concurrent writer after the batch checked it', { cause });
  }
}
