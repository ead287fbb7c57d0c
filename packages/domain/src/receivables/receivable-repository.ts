import { DomainError } from '../shared/domain-error';
import type { CommonListFilter, Page, PageRequest } from '../shared/page';
import type { NewReceivable, Receivable, ReceivableStatus } from './receivable';
import type { ReceivableType } from './receivable-type';

/** A legalNumber the customer already used (SPEC: unique per customer). */
export const duplicatedLegalNumber = (legalNumber: string | null) =>
  new DomainError('duplicated-legal-number', `legalNumber ${legalNumber} is already used by another receivable`);

/** updateMany's precondition, the same for every storage: a receivable twice in one write is a caller's mistake. */
export function assertDistinct(receivables: readonly Receivable[]): void {
  if (new Set(receivables.map((r) => r.id)).size !== receivables.length) throw new Error('updateMany: a receivable given more than once');
}

export interface ReceivableRepository {
  /**
   * An id for a receivable about to be inserted (insert's `id`): asked for before the insert, it travels with the
   * reads that precede it, and the insert need not wait for the database to number the row.
   */
  newId(): Promise<number>;
  /**
   * Stores a new receivable, under `id` when given (from newId); duplicated-legal-number when the customer already
   * used its legalNumber.
   */
  insert(draft: NewReceivable, id?: number): Promise<Receivable>;
  /**
   * Stores new receivables in one write, returned in the order given; duplicated-legal-number, and nothing
   * stored, when one clashes with a stored legalNumber (a concurrent writer's: callers check the stored ones first).
   */
  insertMany(drafts: readonly NewReceivable[]): Promise<Receivable[]>;
  /** Which of `legalNumbers` the customer's receivables already use. */
  legalNumbersInUse(customerId: number, legalNumbers: readonly string[]): Promise<Set<string>>;
  /**
   * The receivables `ids` that exist, each locked with its active children, as getForUpdate and activeChildren
   * lock one: every row of the families in one go, parents' parents first, then children, in id order.
   */
  familiesForUpdate(ids: readonly number[]): Promise<ReceivableFamily[]>;
  /**
   * Reads and locks the row: issuing children locks their parent, so their sum is checked one at a time. A child's
   * parent is locked too, before it: every change to a family locks parent then children (by id), so two changes
   * to one family wait for each other instead of deadlocking.
   */
  getForUpdate(id: number): Promise<Receivable | undefined>;
  /** Children not cancelled (DISABLED), locked with the parent's transaction. */
  activeChildren(parentId: number): Promise<Receivable[]>;
  /** Version-checked save; duplicated-legal-number on a clash. */
  update(receivable: Receivable): Promise<void>;
  /**
   * Version-checked saves of several, all or none (concurrent-modification): for a batch of changes, whose rows
   * storage may write in one statement, so what it keeps per row (the list counts) is written once, in one order.
   * Only for changes that keep each legal number (`update` checks a new one): one that differs is not saved either.
   * Each receivable at most once.
   */
  updateMany(receivables: readonly Receivable[]): Promise<void>;
  /**
   * PENDING receivables due before `today`, children too, up to `limit`, locked for expiring: only
   * `customerId`'s when given (the sandbox helper), every customer's without (the daily job).
   */
  dueForExpiry(today: string, limit: number, customerId?: number): Promise<Receivable[]>;
}

export interface ReceivableFamily {
  readonly parent: Receivable;
  readonly activeChildren: readonly Receivable[];
}

export interface ReceivableListFilter extends CommonListFilter {
  readonly customerId: number;
  readonly receivableAccountId?: number;
  readonly clientId?: number;
  readonly associateId?: number;
  readonly status?: ReceivableStatus;
  readonly receivableType?: ReceivableType;
  readonly fromDueDate?: string;
  readonly toDueDate?: string;
  readonly fromIssueDate?: string;
  readonly toIssueDate?: string;
  readonly legalNumber?: string;
  readonly externalRoutingCode?: string;
  readonly parentReceivableId?: number;
  readonly routeSettlementId?: number;
  readonly minAmountMinor?: bigint;
  readonly maxAmountMinor?: bigint;
}

export interface ReceivableQueries {
  get(id: number): Promise<Receivable | undefined>;
  list(filter: ReceivableListFilter, page: PageRequest): Promise<Page<Receivable>>;
}
