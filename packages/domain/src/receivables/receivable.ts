import { DomainError, InvalidStatusTransitionError, ValidationError } from '../shared/domain-error';
import type { DomainEvent, EventType } from '../shared/events';
import { formatMinor, type CurrencyCode } from '../shared/money';
import { assertInvoiceData, sameInvoiceData, type InvoiceData } from './invoice-data';
import { isPositive, POSITIVE_TYPES, type ReceivableType } from './receivable-type';

export type ReceivableStatus =
  /** Owed and not yet collected. */
  | 'PENDING'
  /** The integrator matched a collection to it; waits for the settlement cycle. */
  | 'PAID'
  /** Funds swept to the customer's current account. Final. */
  | 'SETTLED'
  /** Past its due date unpaid (daily job); can still be paid. */
  | 'EXPIRED'
  /** Cancelled. Final. */
  | 'DISABLED';

export type ReceivableOperation = 'markPaid' | 'undoPayment' | 'expire' | 'cancel' | 'settle' | 'edit';

/**
 * The one table of legal moves. A status with none is final (SETTLED, DISABLED): any change to it, a status move
 * or an edit, is updating-receivable-final-status; a move it lacks from any other status is
 * invalid-status-transition (CONTRACT).
 */
const TRANSITIONS: Readonly<Record<ReceivableStatus, Partial<Record<ReceivableOperation, ReceivableStatus>>>> = {
  PENDING: { markPaid: 'PAID', expire: 'EXPIRED', cancel: 'DISABLED', edit: 'PENDING' },
  PAID: { undoPayment: 'PENDING', cancel: 'DISABLED', settle: 'SETTLED', edit: 'PAID' },
  EXPIRED: { markPaid: 'PAID', cancel: 'DISABLED', edit: 'EXPIRED' },
  SETTLED: {},
  DISABLED: {},
};

/** Each operation as an integrator would say it, for the errors they read. */
const ASKED: Readonly<Record<ReceivableOperation, string>> = {
  markPaid: 'marked PAID',
  undoPayment: 'moved back to PENDING',
  expire: 'expired',
  cancel: 'cancelled',
  settle: 'settled',
  edit: 'edited',
};

export const RECEIVABLE_STATUSES = Object.keys(TRANSITIONS) as readonly ReceivableStatus[];

export const FINAL_STATUSES: readonly ReceivableStatus[] = RECEIVABLE_STATUSES.filter((status) => Object.keys(TRANSITIONS[status]).length === 0);

/**
 * What the settlement cycle does to the receivables of an account it sweeps, read from the table: every one in a
 * status `settle` leaves from moves to the status it leads to. Children settle with their parents by the same
 * rule, since they follow their parent's status. Storage adapters run it set-based, as one guarded UPDATE.
 */
export interface SettlementRule {
  readonly from: readonly ReceivableStatus[];
  readonly to: ReceivableStatus;
}

function settlementRule(): SettlementRule {
  const from = RECEIVABLE_STATUSES.filter((status) => TRANSITIONS[status].settle !== undefined);
  const targets = new Set(from.map((status) => TRANSITIONS[status].settle!));
  // One UPDATE sets one status: a table that settles into two would need the adapters to change with it.
  if (targets.size !== 1) throw new Error(`settle must lead to one status, the table leads to ${[...targets].join(', ') || 'none'}`);
  return { from, to: [...targets][0] };
}

export const SETTLEMENT_RULE: SettlementRule = settlementRule();

/** The event of a move into each status; into PENDING only the undo of a payment moves. */
const EVENT_OF: Partial<Record<ReceivableStatus, EventType>> = {
  PENDING: 'receivable.reopened',
  PAID: 'receivable.paid',
  EXPIRED: 'receivable.expired',
  DISABLED: 'receivable.disabled',
  SETTLED: 'receivable.settled',
};

/** Fields PUT may change (CONTRACT); amount only while PENDING. */
export interface ReceivableEdits {
  readonly amountMinor?: bigint;
  readonly description?: string | null;
  readonly legalNumber?: string | null;
  readonly externalRoutingCode?: string | null;
  readonly issueDate?: string | null;
  readonly dueDate?: string | null;
  readonly attachmentUri?: string | null;
  readonly invoiceData?: InvoiceData | null;
}

export interface ReceivableSnapshot {
  readonly id: number;
  readonly customerId: number;
  readonly receivableAccountId: number;
  readonly clientId: number | null;
  readonly associateId: number | null;
  readonly amountMinor: bigint;
  readonly currencyCode: CurrencyCode;
  readonly receivableType: ReceivableType;
  readonly status: ReceivableStatus;
  readonly legalNumber: string | null;
  readonly description: string | null;
  readonly externalRoutingCode: string | null;
  readonly issueDate: string | null;
  readonly dueDate: string | null;
  readonly receivableDate: string;
  readonly parentReceivableId: number | null;
  readonly attachmentUri: string | null;
  readonly invoiceData: InvoiceData | null;
  /** The route settlement it was grouped under when registered, if any. */
  readonly routeSettlementId: number | null;
  readonly creationDate: Date;
  readonly modificationDate: Date;
  readonly version: number;
}

export type NewReceivable = Omit<ReceivableSnapshot, 'id' | 'version' | 'modificationDate'>;

/** The public representation, shared by API responses and event payloads. */
/**
 * An invoice falls due on or after the day it is issued: a dueDate before its issueDate is a typing error that would
 * have the receivable expire the night it is created (SPEC is silent; README "Receivables" says so).
 */
function assertDueAfterIssue(issueDate: string | null, dueDate: string | null): void {
  if (issueDate !== null && dueDate !== null && dueDate < issueDate) throw ValidationError.of('dueDate', `must not be before issueDate (${issueDate})`);
}

export function receivableView(r: ReceivableSnapshot) {
  return {
    id: r.id,
    receivableAccountId: r.receivableAccountId,
    clientId: r.clientId,
    associateId: r.associateId,
    amount: Number(formatMinor(r.amountMinor)),
    currencyCode: r.currencyCode,
    receivableType: r.receivableType,
    status: r.status,
    legalNumber: r.legalNumber,
    description: r.description,
    externalRoutingCode: r.externalRoutingCode,
    issueDate: r.issueDate,
    dueDate: r.dueDate,
    receivableDate: r.receivableDate,
    parentReceivableId: r.parentReceivableId,
    attachmentUri: r.attachmentUri,
    invoiceData: r.invoiceData,
    creationDate: r.creationDate.toISOString(),
    modificationDate: r.modificationDate.toISOString(),
  };
}

/** An accounting record of a debt (positive types) or of a reduction of one (negative types, always children). */
export class Receivable {
  private constructor(
    private readonly state: ReceivableSnapshot,
    readonly events: readonly DomainEvent[] = [],
  ) {}

  /**
   * Validates a new receivable's own fields, and SPEC rule 1: a negative type names its parent, a positive one none.
   * The named parent's own rules are its admitChild; the account's are the issuing use case's.
   */
  static draft(input: Omit<NewReceivable, 'status' | 'creationDate'>, status: ReceivableStatus, now: Date): NewReceivable {
    if (input.amountMinor <= 0n) throw new DomainError('validation', 'amount must be greater than 0');
    if (isPositive(input.receivableType) && input.parentReceivableId !== null) {
      throw ValidationError.of('parentReceivableId', `only negative types hang from a parent; ${input.receivableType} does not`);
    }
    if (!isPositive(input.receivableType) && input.parentReceivableId === null) {
      throw new DomainError('missing-parent-receivable', `a ${input.receivableType} must name its parent in parentReceivableId`);
    }
    assertInvoiceData(input.invoiceData);
    assertDueAfterIssue(input.issueDate ?? null, input.dueDate ?? null);
    return { ...input, status, creationDate: now };
  }

  static rehydrate(snapshot: ReceivableSnapshot): Receivable {
    return new Receivable(snapshot);
  }

  static nextStatus(from: ReceivableStatus, operation: ReceivableOperation): ReceivableStatus | undefined {
    return TRANSITIONS[from][operation];
  }

  /** The receivable.created event of a freshly stored receivable. */
  static created(snapshot: ReceivableSnapshot): DomainEvent {
    return { customerId: snapshot.customerId, type: 'receivable.created', occurredAt: snapshot.creationDate, data: { receivable: receivableView(snapshot) } };
  }

  get id(): number {
    return this.state.id;
  }

  get customerId(): number {
    return this.state.customerId;
  }

  get status(): ReceivableStatus {
    return this.state.status;
  }

  get isPositive(): boolean {
    return isPositive(this.state.receivableType);
  }

  get amountMinor(): bigint {
    return this.state.amountMinor;
  }

  toSnapshot(): ReceivableSnapshot {
    return this.state;
  }

  markPaid(now: Date): Receivable {
    return this.move('markPaid', now, {});
  }

  undoPayment(now: Date): Receivable {
    return this.move('undoPayment', now, {});
  }

  expire(now: Date): Receivable {
    return this.move('expire', now, {});
  }

  cancel(now: Date): Receivable {
    return this.move('cancel', now, {});
  }

  settle(now: Date): Receivable {
    return this.move('settle', now, {});
  }

  /** A child follows its parent to `status` (PAID, back to PENDING, SETTLED) by the matching move. */
  follow(status: ReceivableStatus, now: Date): Receivable {
    const operation: ReceivableOperation = status === 'PAID' ? 'markPaid' : status === 'PENDING' ? 'undoPayment' : 'settle';
    return this.move(operation, now, {});
  }

  /**
   * SPEC rules 2 and 3 for a new child of this receivable: on the same account, under a positive receivable that
   * can still change, and within its amount together with its active children. Returns the status the child
   * starts in: paid with a PAID parent, owed otherwise.
   */
  admitChild(
    child: { readonly receivableAccountId: number; readonly amountMinor: bigint },
    activeChildren: readonly { readonly amountMinor: bigint }[],
  ): ReceivableStatus {
    const { id, receivableAccountId, receivableType, status } = this.state;
    if (child.receivableAccountId !== receivableAccountId)
      throw new DomainError('parent-receivable-different-account', `parent ${id} is on account ${receivableAccountId}`);
    if (!this.isPositive)
      throw new DomainError('parent-receivable-invalid-type', `parent ${id} is a ${receivableType}; parents are ${POSITIVE_TYPES.join(' or ')}`);
    if (FINAL_STATUSES.includes(status))
      throw new DomainError('parent-receivable-not-modifiable', `parent ${id} is ${status}, a final status; children hang only from one that can still change`);
    this.assertChildrenFit([...activeChildren, child]);
    return status === 'PAID' ? 'PAID' : 'PENDING';
  }

  /** SPEC rule 3: the active children of this receivable total at most its amount, whichever of them changed. */
  assertChildrenFit(activeChildren: readonly { readonly amountMinor: bigint }[]): void {
    const total = activeChildren.reduce((sum, child) => sum + child.amountMinor, 0n);
    if (total > this.state.amountMinor) {
      throw new DomainError(
        'child-receivables-exceed-parent-amount',
        `children of parent ${this.state.id} would total ${formatMinor(total)}, more than its amount ${formatMinor(this.state.amountMinor)}`,
      );
    }
  }

  /** Refuses any change to a final receivable, before any other rule of the change is weighed (CONTRACT). */
  assertModifiable(): void {
    if (FINAL_STATUSES.includes(this.state.status)) {
      throw new DomainError('updating-receivable-final-status', `receivable ${this.state.id} is ${this.state.status}, a final status, and cannot be modified`);
    }
  }

  /**
   * PUT: editable fields only; a final receivable cannot change, the amount only while PENDING. `routeSettlementId`
   * is the route settlement it is grouped under once its externalRoutingCode is edited (the caller looks it up).
   */
  edit(edits: ReceivableEdits, now: Date, regrouped?: { readonly routeSettlementId: number | null }): Receivable {
    this.assertModifiable();
    if (edits.amountMinor !== undefined && edits.amountMinor !== this.state.amountMinor && this.state.status !== 'PENDING') {
      throw new InvalidStatusTransitionError('receivable', this.state.id, this.state.status, 'given a new amount (only a PENDING one can)');
    }
    // Only changed voucher data or dates are held to the rules: rows stored before a rule stay editable otherwise,
    // by a partial body or by a whole one sent back as it was read.
    if (edits.invoiceData !== undefined && !sameInvoiceData(edits.invoiceData, this.state.invoiceData)) assertInvoiceData(edits.invoiceData);
    const { issueDate = this.state.issueDate, dueDate = this.state.dueDate } = edits;
    if (issueDate !== this.state.issueDate || dueDate !== this.state.dueDate) assertDueAfterIssue(issueDate, dueDate);
    const changes = Object.fromEntries(Object.entries(edits).filter(([, v]) => v !== undefined));
    return this.move('edit', now, { ...changes, ...regrouped });
  }

  private move(operation: ReceivableOperation, now: Date, changes: Partial<ReceivableSnapshot>): Receivable {
    this.assertModifiable();
    const status = Receivable.nextStatus(this.state.status, operation);
    if (!status) throw new InvalidStatusTransitionError('receivable', this.state.id, this.state.status, ASKED[operation]);
    const next: ReceivableSnapshot = { ...this.state, ...changes, status, modificationDate: now, version: this.state.version + 1 };
    const type = status === this.state.status ? undefined : EVENT_OF[status];
    const events: DomainEvent[] = type ? [{ customerId: next.customerId, type, occurredAt: now, data: { receivable: receivableView(next) } }] : [];
    return new Receivable(next, events);
  }
}
