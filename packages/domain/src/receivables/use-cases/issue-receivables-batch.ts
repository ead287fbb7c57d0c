import { DomainError } from '../../shared/domain-error';
import type { BatchOutcome } from '../../shared/batch';
import type { Clock } from '../../shared/clock';
import { retryingLostRaces } from '../../shared/lost-races';
import { ownedBy } from '../../shared/owned';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { alreadyExists, ownReceivingAccount, receivingAccount, usableAssociate } from '../../receivable-accounts/use-cases/account-parties';
import type { ReceivableAccount } from '../../receivable-accounts/receivable-account';
import { Receivable, type NewReceivable, type ReceivableStatus } from '../receivable';
import { duplicatedLegalNumber } from '../receivable-repository';
import { isPositive } from '../receivable-type';
import { loadReferences, type BatchReferences } from './batch-references';
import type { IssueReceivableInput } from './issue-receivable';
import { assertIssuable, associateConflict, draftOf, routeSettlementIdOf, unmatchingClient } from './issue-rules';

type BatchScope = Pick<TransactionScope, 'receivableAccounts' | 'currentAccounts' | 'clients' | 'associates' | 'receivables' | 'routeSettlements' | 'outbox'>;

/** What earlier items of the batch did, as later ones would have seen it had each been posted alone, in order. */
interface Issued {
  /** Accounts as they stand: bound to an associate by an earlier item, or read again under lock to be bound. */
  readonly accounts: Map<number, ReceivableAccount>;
  readonly locked: Set<number>;
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
      () => this.uow.run((tx) => this.issue(tx, input.items)),
      (error) => error instanceof RaceLost,
    );
  }

  private async issue(tx: BatchScope, items: ReadonlyArray<IssueReceivableInput | DomainError>): Promise<BatchOutcome<Receivable>[]> {
    const now = this.clock.now();
    const parsed = items.filter((item): item is IssueReceivableInput => !(item instanceof DomainError));
    const customerId = parsed[0]?.customerId;
    if (parsed.some((item) => item.customerId !== customerId)) throw new Error("a batch holds one customer's receivables");
    const references = customerId === undefined ? undefined : await loadReferences(tx, customerId, parsed);
    const issued: Issued = { accounts: new Map(references?.accounts), locked: new Set(), children: new Map(), legalNumbers: new Set() };
    const outcomes: Array<NewReceivable | DomainError> = [];
    for (const item of items) {
      if (item instanceof DomainError) {
        outcomes.push(item);
        continue;
      }
      try {
        // An item that parsed means references were read.
        outcomes.push(await this.check(tx, item, references!, issued, now));
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

  /** One item's rules, in IssueReceivable's order; accepted, what it issued is recorded for the items after it. */
  private async check(tx: BatchScope, item: IssueReceivableInput, references: BatchReferences, issued: Issued, now: Date): Promise<NewReceivable> {
    const accountId = item.receivableAccountId;
    const account = ownReceivingAccount(issued.accounts.get(accountId), item.customerId, accountId, references.currentAccountIds);
    assertIssuable(account, item.currencyCode);
    const clientId = this.client(item, account, references);
    const { associateId, bound } = await this.associate(tx, item, account, references, issued, now);
    const [status, parentReceivableId] = this.parent(item, references, issued);
    const code = item.externalRoutingCode ?? null;
    const routeSettlementId = associateId === null || code === null ? null : routeSettlementIdOf(references.routeSettlements.get(code), associateId);
    const draft = draftOf(item, { account, clientId, associateId, status, parentReceivableId, routeSettlementId }, now);
    const legalNumber = draft.legalNumber;
    if (legalNumber !== null && (references.legalNumbersInUse.has(legalNumber) || issued.legalNumbers.has(legalNumber))) {
      throw duplicatedLegalNumber(legalNumber);
    }
    if (bound) await this.bind(bound, issued);
    if (legalNumber !== null) issued.legalNumbers.add(legalNumber);
    // Past the draft's rule 1, an item with a parent is a negative one, which the parent's sum counts.
    if (parentReceivableId !== null) issued.children.set(parentReceivableId, [...(issued.children.get(parentReceivableId) ?? []), draft.amountMinor]);
    return draft;
  }

  private client(item: IssueReceivableInput, account: ReceivableAccount, references: BatchReferences): number | null {
    const own = account.owner.clientId;
    if (item.clientId === undefined || item.clientId === null || item.clientId === own) return own;
    ownedBy(references.clients.get(item.clientId), item.customerId, 'client', item.clientId);
    throw unmatchingClient(own);
  }

  /**
   * As IssueReceivable's: none unless given, ACTIVE, the account's or bound to it now. Binding is rare in bulk,
   * and a bound account is what the items after it see, so an account is read again under lock and checked for a
   * free owner by itself, as a single creation would.
   */
  private async associate(
    tx: BatchScope,
    item: IssueReceivableInput,
    read: ReceivableAccount,
    references: BatchReferences,
    issued: Issued,
    now: Date,
  ): Promise<{ associateId: number | null; bound?: ReceivableAccount }> {
    if (item.associateId === undefined || item.associateId === null) return { associateId: null };
    let account = read;
    if (read.owner.associateId === null && !issued.locked.has(read.id)) {
      account = await receivingAccount(tx, item.customerId, read.id, 'lock');
      issued.accounts.set(account.id, account);
      issued.locked.add(account.id);
    }
    usableAssociate(references.associates.get(item.associateId), item.customerId, item.associateId);
    const current = account.owner.associateId;
    if (item.associateId === current) return { associateId: current };
    if (current !== null) throw associateConflict(current);
    const existing = await tx.receivableAccounts.findByOwner(item.customerId, { clientId: account.owner.clientId, associateId: item.associateId }, 'ARS');
    if (existing) throw alreadyExists(existing);
    return { associateId: item.associateId, bound: account.update({ associateId: item.associateId }, now) };
  }

  /** A negative item's parent, admitting it with its active children and those issued before it in the batch. */
  private parent(item: IssueReceivableInput, references: BatchReferences, issued: Issued): [ReceivableStatus, number | null] {
    const parentId = item.parentReceivableId ?? null;
    if (parentId === null || isPositive(item.receivableType)) return ['PENDING', parentId];
    const family = references.families.get(parentId);
    const parent = ownedBy(family?.parent, item.customerId, 'parent receivable', parentId);
    const siblings = [...family!.activeChildren, ...(issued.children.get(parentId) ?? []).map((amountMinor) => ({ amountMinor }))];
    return [parent.admitChild({ receivableAccountId: item.receivableAccountId, amountMinor: item.amount.minor }, siblings), parentId];
  }

  /** Saves a binding at once, on its own: a clash with a concurrent one is this item's answer, not the batch's. */
  private async bind(bound: ReceivableAccount, issued: Issued): Promise<void> {
    await this.uow.isolated(() => this.uow.run((tx) => tx.receivableAccounts.update(bound)));
    issued.accounts.set(bound.id, bound);
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

/** The batch's insert met a legalNumber stored since its check: the attempt is undone and made again. */
class RaceLost extends Error {
  constructor(cause: DomainError) {
    super('a legalNumber was stored by a concurrent writer after the batch checked it', { cause });
  }
}
