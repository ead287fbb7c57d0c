import { DomainError, InvalidStatusTransitionError, ValidationError } from '../shared/domain-error';
import type { DomainEvent, EventType } from '../shared/events';
import { formatMinor, type CurrencyCode } from '../shared/money';
import type { TransferDestination, TransferType } from './transfer-destination';

export type TransferStatus =
  /**
   * Created with a scheduledDate, today's included (SPEC: "scheduledDate given: SCHEDULED, executes on that day"),
   * or approved with one still ahead (CONTRACT): the worker takes it on that day, and until then it can be cancelled.
   */
  | 'SCHEDULED'
  /** The customer has approval control: waits for a second credential to approve or reject it. */
  | 'PENDING_APPROVAL'
  /** Due now: the worker takes it on its next pass. */
  | 'PENDING'
  /** Debited and handed to the provider; the outcome is not known yet. */
  | 'IN_PROGRESS'
  /** The money reached the destination. Final. */
  | 'COMPLETED'
  /** Not paid (failureReason says why); any debit was returned. Final. */
  | 'FAILED'
  /** Cancelled by the customer or rejected by an approver before any money moved. Final. */
  | 'CANCELLED';

export type TransferOperation =
  | 'cancel'
  /** Approval of a transfer whose scheduledDate is still ahead. */
  | 'approveForLater'
  /** Approval of a transfer due today (or with no date). */
  | 'approveForNow'
  | 'reject'
  /** The worker debits it and hands it to the provider (a SCHEDULED one only once due). */
  | 'start'
  | 'complete'
  /** The worker could not pay it: refused before the debit (insufficient balance) or by the provider after it. */
  | 'fail';

/**
 * The one table of legal moves (SPEC "Transfer", CONTRACT "Transfers"). Cancelling is allowed only from
 * SCHEDULED and PENDING_APPROVAL: anything later has been, or is being, handed to the worker.
 */
const TRANSITIONS: Readonly<Record<TransferStatus, Partial<Record<TransferOperation, TransferStatus>>>> = {
  PENDING_APPROVAL: { cancel: 'CANCELLED', approveForLater: 'SCHEDULED', approveForNow: 'PENDING', reject: 'CANCELLED' },
  SCHEDULED: { cancel: 'CANCELLED', start: 'IN_PROGRESS', fail: 'FAILED' },
  PENDING: { start: 'IN_PROGRESS', fail: 'FAILED' },
  IN_PROGRESS: { complete: 'COMPLETED', fail: 'FAILED' },
  COMPLETED: {},
  FAILED: {},
  CANCELLED: {},
};

/** Each operation as an integrator would say it, for the errors they read. */
const ASKED: Readonly<Record<TransferOperation, string>> = {
  cancel: 'cancelled',
  approveForLater: 'approved',
  approveForNow: 'approved',
  reject: 'rejected',
  start: 'started',
  complete: 'completed',
  fail: 'failed',
};

const EVENT_OF: Partial<Record<TransferStatus, EventType>> = { COMPLETED: 'transfer.completed', FAILED: 'transfer.failed' };

export const TRANSFER_STATUSES = Object.keys(TRANSITIONS) as readonly TransferStatus[];
export const TRANSFER_OPERATIONS = Object.keys(ASKED) as readonly TransferOperation[];

/** The worker's hold on a transfer it is paying: a lease, so a dead worker's transfer is taken up again. */
export interface TransferProcessing {
  /** Passes that took it up; the worker gives up past its limit. */
  readonly attempts: number;
  readonly claimedUntil: Date | null;
  readonly claimedBy: string | null;
}

/** A worker's hold: who took the transfer up, and until when before another may take it over. */
export interface TransferLease {
  readonly by: string;
  readonly until: Date;
}

export interface TransferSnapshot {
  readonly id: number;
  readonly customerId: number;
  readonly type: TransferType;
  readonly status: TransferStatus;
  readonly sourceAccountId: number;
  readonly amountMinor: bigint;
  readonly currencyCode: CurrencyCode;
  readonly destination: TransferDestination;
  /** The recipient the destination was copied from, if any; kept after the recipient is deleted. */
  readonly contactId: number | null;
  readonly description: string | null;
  readonly externalId: string | null;
  /** The Buenos Aires day to pay it on; null: as soon as possible. */
  readonly scheduledDate: string | null;
  /** When the money left: set on completion. */
  readonly executionDate: Date | null;
  readonly failureReason: string | null;
  /** The credential that asked for it: it may not approve it (four eyes). */
  readonly createdByCredentialId: number;
  readonly approvedByCredentialId: number | null;
  readonly rejectedByCredentialId: number | null;
  readonly processing: TransferProcessing;
  readonly creationDate: Date;
  readonly modificationDate: Date;
  readonly version: number;
}

export type NewTransfer = Omit<TransferSnapshot, 'id' | 'version' | 'modificationDate'>;

/** The public representation, shared by API responses and event payloads (amount as a JSON number, exact). */
export function transferView(t: TransferSnapshot) {
  return {
    id: t.id,
    type: t.type,
    status: t.status,
    sourceAccountId: t.sourceAccountId,
    amount: Number(formatMinor(t.amountMinor)),
    currencyCode: t.currencyCode,
    destination: t.destination,
    contactId: t.contactId,
    description: t.description,
    externalId: t.externalId,
    scheduledDate: t.scheduledDate,
    creationDate: t.creationDate.toISOString(),
    modificationDate: t.modificationDate.toISOString(),
    executionDate: t.executionDate?.toISOString() ?? null,
    failureReason: t.failureReason,
  };
}

/** Money out of a current account: to a third party, or to another current account of the same customer. */
export class Transfer {
  private constructor(
    private readonly state: TransferSnapshot,
    readonly events: readonly DomainEvent[] = [],
  ) {}

  /**
   * A new transfer's first status: waiting for approval under approval control, else SCHEDULED when it has a day
   * (today's in Buenos Aires included), else PENDING. A day already past is refused: nobody can pay yesterday.
   */
  static draft(
    input: Omit<
      NewTransfer,
      'status' | 'creationDate' | 'executionDate' | 'failureReason' | 'approvedByCredentialId' | 'rejectedByCredentialId' | 'processing'
    >,
    options: { approvalControl: boolean; today: string },
    now: Date,
  ): NewTransfer {
    if (input.amountMinor <= 0n) throw ValidationError.of('amount', 'must be greater than 0');
    if (input.scheduledDate !== null && input.scheduledDate < options.today) {
      throw ValidationError.of('scheduledDate', `must be today (${options.today} in Buenos Aires) or later`);
    }
    const status: TransferStatus = options.approvalControl ? 'PENDING_APPROVAL' : input.scheduledDate === null ? 'PENDING' : 'SCHEDULED';
    return {
      ...input,
      status,
      executionDate: null,
      failureReason: null,
      approvedByCredentialId: null,
      rejectedByCredentialId: null,
      processing: { attempts: 0, claimedUntil: null, claimedBy: null },
      creationDate: now,
    };
  }

  static rehydrate(snapshot: TransferSnapshot): Transfer {
    return new Transfer(snapshot);
  }

  static nextStatus(from: TransferStatus, operation: TransferOperation): TransferStatus | undefined {
    return TRANSITIONS[from][operation];
  }

  /** Whether a transfer for `scheduledDate` is due on `today` (both Buenos Aires days). */
  static dueBy(scheduledDate: string | null, today: string): boolean {
    return scheduledDate === null || scheduledDate <= today;
  }

  get id(): number {
    return this.state.id;
  }

  get customerId(): number {
    return this.state.customerId;
  }

  get status(): TransferStatus {
    return this.state.status;
  }

  toSnapshot(): TransferSnapshot {
    return this.state;
  }

  /** Only from SCHEDULED or PENDING_APPROVAL (SPEC): later it is the worker's, and 422 transfer-not-cancelable. */
  cancel(now: Date): Transfer {
    if (!Transfer.nextStatus(this.state.status, 'cancel')) {
      throw new DomainError(
        'transfer-not-cancelable',
        `transfer ${this.state.id} is ${this.state.status}; only a SCHEDULED or PENDING_APPROVAL transfer can be cancelled`,
      );
    }
    return this.move('cancel', now, {});
  }

  /** Four eyes: the credential that created it cannot approve it (403 forbidden). */
  approve(credentialId: number, today: string, now: Date): Transfer {
    this.assertMove('approveForNow');
    if (credentialId === this.state.createdByCredentialId) {
      throw new DomainError('forbidden', `transfer ${this.state.id} was created by this credential; another credential must approve it`);
    }
    const operation = Transfer.dueBy(this.state.scheduledDate, today) ? 'approveForNow' : 'approveForLater';
    return this.move(operation, now, { approvedByCredentialId: credentialId });
  }

  reject(credentialId: number, now: Date): Transfer {
    return this.move('reject', now, { rejectedByCredentialId: credentialId });
  }

  /**
   * The worker takes it up (PENDING, or SCHEDULED once its day has come) in the transaction that debits it; with a
   * lease when the payout is yet to be sent, so a worker that dies before recording the result is taken over.
   */
  start(today: string, now: Date, lease?: TransferLease): Transfer {
    this.assertMove('start');
    if (!Transfer.dueBy(this.state.scheduledDate, today)) {
      throw new InvalidStatusTransitionError('transfer', this.state.id, this.state.status, `started before its scheduledDate ${this.state.scheduledDate}`);
    }
    return this.move('start', now, lease ? { processing: this.leased(lease) } : {});
  }

  /** An INTERNAL_TRANSFER: no provider between two accounts of ours, so it starts and completes in one write. */
  completeAtOnce(today: string, now: Date): Transfer {
    const done = this.start(today, now).complete(now);
    return new Transfer({ ...done.state, version: this.state.version + 1 }, done.events);
  }

  /** A new lease on an IN_PROGRESS transfer whose lease ended: the next worker finds out from the provider what became of it. */
  renewLease(lease: TransferLease): Transfer {
    if (this.state.status !== 'IN_PROGRESS') throw new InvalidStatusTransitionError('transfer', this.state.id, this.state.status, 'leased');
    return this.withProcessing(this.leased(lease));
  }

  /** Ends `lease` now (the payout is on its way, or the provider did not answer): the next pass asks the provider again. */
  releaseLease(lease: TransferLease, now: Date): Transfer {
    const p = this.state.processing;
    if (this.state.status !== 'IN_PROGRESS' || p.claimedBy !== lease.by || p.claimedUntil?.getTime() !== lease.until.getTime()) return this;
    return this.withProcessing({ ...p, claimedUntil: now });
  }

  /** The account an alias destination names, as the provider resolved it before any money moved: the payout goes there. */
  resolveAlias(cbuCvu: string): Transfer {
    if (this.state.destination.cbuCvu !== null || (this.state.status !== 'PENDING' && this.state.status !== 'SCHEDULED')) {
      throw new InvalidStatusTransitionError('transfer', this.state.id, this.state.status, 'given another destination');
    }
    // Its payout starts with every attempt of its own: passes spent waiting for the alias's answer are not payouts.
    const processing = { ...this.state.processing, attempts: 0 };
    return new Transfer({ ...this.state, destination: { ...this.state.destination, cbuCvu }, processing, version: this.state.version + 1 });
  }

  /**
   * A pass in which the provider could not say which account the alias names: counted, and the pass that makes
   * `maxAttempts` FAILS the transfer (provider-unavailable; nothing was debited yet), so transfers the provider
   * never answers for do not hold the head of the queue, and the ones behind them, for ever.
   */
  aliasUnanswered(maxAttempts: number, now: Date): Transfer {
    const attempts = this.state.processing.attempts + 1;
    return attempts >= maxAttempts ? this.fail('provider-unavailable', now) : this.withProcessing({ ...this.state.processing, attempts });
  }

  complete(now: Date): Transfer {
    return this.move('complete', now, { executionDate: now });
  }

  fail(reason: string, now: Date): Transfer {
    return this.move('fail', now, { failureReason: reason });
  }

  private leased(lease: TransferLease): TransferProcessing {
    return { attempts: this.state.processing.attempts + 1, claimedUntil: lease.until, claimedBy: lease.by };
  }

  /** The worker's bookkeeping: not a move the integrator sees, so no event and no new modificationDate. */
  private withProcessing(processing: TransferProcessing): Transfer {
    return new Transfer({ ...this.state, processing, version: this.state.version + 1 });
  }

  private assertMove(operation: TransferOperation): TransferStatus {
    const status = Transfer.nextStatus(this.state.status, operation);
    if (!status) throw new InvalidStatusTransitionError('transfer', this.state.id, this.state.status, ASKED[operation]);
    return status;
  }

  private move(operation: TransferOperation, now: Date, changes: Partial<TransferSnapshot>): Transfer {
    const status = this.assertMove(operation);
    const next: TransferSnapshot = { ...this.state, ...changes, status, modificationDate: now, version: this.state.version + 1 };
    const type = EVENT_OF[status];
    const events: DomainEvent[] = type ? [{ customerId: next.customerId, type, occurredAt: now, data: { transfer: transferView(next) } }] : [];
    return new Transfer(next, events);
  }
}
