import { DomainError, InvalidStatusTransitionError } from '../shared/domain-error';
import type { DomainEvent } from '../shared/events';
import type { CurrencyCode } from '../shared/money';
import { jsonAmount } from '../shared/exact-json';
import { ownerTypeOf, type AccountOwner, type OwnerType } from './owner';

export type ReceivableAccountStatus =
  /** Waiting for the banking provider's CVU: accepts receivables, receives no collections. */
  | 'PROVISIONING'
  /** Has its CVU: receives collections and accepts receivables. */
  | 'ACTIVE'
  /** Receives no collections and accepts no receivables; history stays readable. */
  | 'DISABLED';

export type ReceivableAccountOperation =
  | 'assignCvu'
  | 'retryProvisioning'
  | 'failProvisioning'
  | 'update'
  /** The service's own move: the alias another account took at the provider, replaced by one registered for the CVU. */
  | 'replaceAlias'
  | 'disable'
  /** Re-enabling an account that has its CVU. */
  | 'activate'
  /** Re-enabling an account that never got one: back to asking the provider. */
  | 'resumeProvisioning';

/** The one table of legal moves. */
const TRANSITIONS: Readonly<Record<ReceivableAccountStatus, Partial<Record<ReceivableAccountOperation, ReceivableAccountStatus>>>> = {
  PROVISIONING: { assignCvu: 'ACTIVE', retryProvisioning: 'PROVISIONING', failProvisioning: 'DISABLED', update: 'PROVISIONING', disable: 'DISABLED' },
  ACTIVE: { update: 'ACTIVE', replaceAlias: 'ACTIVE', disable: 'DISABLED' },
  DISABLED: { activate: 'ACTIVE', resumeProvisioning: 'PROVISIONING', replaceAlias: 'DISABLED' },
};

export const RECEIVABLE_ACCOUNT_STATUSES = Object.keys(TRANSITIONS) as readonly ReceivableAccountStatus[];

/** Each operation as an integrator would say it, for the errors they read. */
const ASKED: Readonly<Record<ReceivableAccountOperation, string>> = {
  assignCvu: 'given a CVU',
  retryProvisioning: 'provisioned again',
  failProvisioning: 'failed in provisioning',
  update: 'changed',
  replaceAlias: 'given another alias',
  disable: 'disabled',
  activate: 'activated',
  resumeProvisioning: 'activated',
};

/** Where the provider conversation stands; kept so provisioning survives restarts. */
export interface ProvisioningState {
  /** Failed attempts in a row (provider down or timing out); a PENDING answer is not a failure. */
  readonly attempts: number;
  /** When the worker may ask the provider next; null once the account leaves PROVISIONING. */
  readonly nextAttemptAt: Date | null;
  readonly lastError: string | null;
}

/** Why a DISABLED account is disabled, as responses and events tell it. */
export const DISABLED_REASONS = [
  /** The provider refused to issue the CVU, for good. */
  'PROVIDER_REJECTED',
  /** The provider could not be reached, or answered unusably, as many times in a row as the policy allows. */
  'PROVISIONING_RETRIES_EXHAUSTED',
  /** The customer disabled it (DELETE). */
  'DISABLED_BY_CUSTOMER',
] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

export interface Disablement {
  readonly reason: DisabledReason;
  /** The provider's own words for its refusal; null otherwise: failures to reach it are ours, kept in lastError. */
  readonly message: string | null;
}

export interface ReceivableAccountSnapshot extends AccountOwner {
  readonly id: number;
  readonly customerId: number;
  readonly currencyCode: CurrencyCode;
  readonly status: ReceivableAccountStatus;
  readonly cvu: string | null;
  readonly alias: string | null;
  readonly provisioning: ProvisioningState;
  /** Set while DISABLED, null otherwise. */
  readonly disabled: Disablement | null;
  readonly creationDate: Date;
  readonly modificationDate: Date;
  readonly version: number;
}

/**
 * The public representation, shared by API responses and event payloads: the account and the sum of its PENDING
 * receivables' amounts (stats.pendingAmount).
 */
/** An account's `owner` as the API shows it: one party by type and id, or both by their ids. */
export function ownerView(a: AccountOwner) {
  const type = ownerTypeOf(a);
  return type === 'CLIENT_AND_ASSOCIATE' ? { type, clientId: a.clientId, associateId: a.associateId } : { type, id: (a.clientId ?? a.associateId) as number };
}

export function receivableAccountView(a: ReceivableAccountSnapshot, pendingAmountMinor: bigint) {
  return {
    id: a.id,
    cvu: a.cvu,
    alias: a.alias,
    currencyCode: a.currencyCode,
    status: a.status,
    disabledReason: a.disabled?.reason ?? null,
    disabledMessage: a.disabled?.message ?? null,
    owner: ownerView(a),
    creationDate: a.creationDate.toISOString(),
    modificationDate: a.modificationDate.toISOString(),
    stats: { pendingAmount: jsonAmount(pendingAmountMinor) },
  };
}

type AccountEventType = Extract<DomainEvent['type'], `receivable-account.${string}`>;

/** A collection account with a dedicated CVU, owned by a client, an associate or both. */
export class ReceivableAccount {
  private constructor(
    private readonly state: ReceivableAccountSnapshot,
    /** The event of the move that made this instance (a change of status), to be stored with it; null: none. */
    readonly eventType: AccountEventType | null = null,
  ) {}

  /**
   * The event of the move that made this instance, if any, its data the account as GET answers it: with the sum
   * of its pending receivables, which only storage knows (read in the move's transaction).
   */
  eventsWith(pendingAmountMinor: bigint): DomainEvent[] {
    if (this.eventType === null) return [];
    const { customerId, modificationDate } = this.state;
    return [
      { customerId, type: this.eventType, occurredAt: modificationDate, data: { receivableAccount: receivableAccountView(this.state, pendingAmountMinor) } },
    ];
  }

  /** A new account waiting for its CVU; the worker may ask the provider at once. */
  static open(input: { id: number; customerId: number; owner: AccountOwner; currencyCode: CurrencyCode }, now: Date): ReceivableAccount {
    ownerTypeOf(input.owner);
    return new ReceivableAccount({
      id: input.id,
      customerId: input.customerId,
      clientId: input.owner.clientId,
      associateId: input.owner.associateId,
      currencyCode: input.currencyCode,
      status: 'PROVISIONING',
      cvu: null,
      alias: null,
      provisioning: { attempts: 0, nextAttemptAt: now, lastError: null },
      disabled: null,
      creationDate: now,
      modificationDate: now,
      version: 1,
    });
  }

  static rehydrate(snapshot: ReceivableAccountSnapshot): ReceivableAccount {
    return new ReceivableAccount(snapshot);
  }

  static nextStatus(from: ReceivableAccountStatus, operation: ReceivableAccountOperation): ReceivableAccountStatus | undefined {
    return TRANSITIONS[from][operation];
  }

  get id(): number {
    return this.state.id;
  }

  get customerId(): number {
    return this.state.customerId;
  }

  get status(): ReceivableAccountStatus {
    return this.state.status;
  }

  get ownerType(): OwnerType {
    return ownerTypeOf(this.state);
  }

  get owner(): AccountOwner {
    return { clientId: this.state.clientId, associateId: this.state.associateId };
  }

  toSnapshot(): ReceivableAccountSnapshot {
    return this.state;
  }

  /** The provider assigned the CVU: the account becomes ACTIVE with its generated alias. */
  assignCvu(cvu: string, alias: string, now: Date): ReceivableAccount {
    return this.move('assignCvu', now, { cvu, alias, provisioning: { ...this.state.provisioning, nextAttemptAt: null, lastError: null } });
  }

  /** Not assigned yet (pending) or the provider failed: ask again at `nextAttemptAt`. */
  retryProvisioning(nextAttemptAt: Date, failure: string | null, now: Date): ReceivableAccount {
    const attempts = failure === null ? this.state.provisioning.attempts : this.state.provisioning.attempts + 1;
    return this.move('retryProvisioning', now, { provisioning: { attempts, nextAttemptAt, lastError: failure ?? this.state.provisioning.lastError } });
  }

  /** The provider refused for good: DISABLED, its reason told to the customer. */
  rejectProvisioning(providerReason: string, now: Date): ReceivableAccount {
    return this.failProvisioning({ reason: 'PROVIDER_REJECTED', message: providerReason }, `rejected by the provider: ${providerReason}`, now);
  }

  /** The last attempt the policy allows failed too: DISABLED; what failed stays internal. */
  giveUpProvisioning(lastFailure: string, now: Date): ReceivableAccount {
    const attempts = this.state.provisioning.attempts + 1;
    return this.failProvisioning(
      { reason: 'PROVISIONING_RETRIES_EXHAUSTED', message: null },
      `gave up after ${attempts} failed attempts; last: ${lastFailure}`,
      now,
    );
  }

  /**
   * PUT: a new alias (only once there is one) and/or an associate bound afterwards. Replacing a bound associate
   * is refused once the account is ACTIVE with its CVU, since collections already arrive for that owner.
   */
  update(changes: { alias?: string; associateId?: number }, now: Date): ReceivableAccount {
    const next: Partial<ReceivableAccountSnapshot> = {};
    if (changes.associateId !== undefined && changes.associateId !== this.state.associateId) {
      if (this.state.associateId !== null && this.state.cvu !== null && this.state.status === 'ACTIVE') {
        throw new DomainError(
          'receivable-account-owner-immutable',
          `receivable account ${this.state.id} has an active CVU for associate ${this.state.associateId}; associateId cannot change`,
        );
      }
      Object.assign(next, { associateId: changes.associateId });
    }
    if (changes.alias !== undefined && changes.alias !== this.state.alias) {
      if (this.state.alias === null) {
        throw new InvalidStatusTransitionError('receivable account', this.state.id, this.state.status, 'given an alias before its CVU is assigned');
      }
      Object.assign(next, { alias: changes.alias });
    }
    return this.move('update', now, next);
  }

  /** The account's alias, once it has one, replaced by one the provider registered for its CVU (AliasRegistrar.reconcile). */
  replaceAlias(alias: string, now: Date): ReceivableAccount {
    return this.move('replaceAlias', now, { alias });
  }

  disable(now: Date): ReceivableAccount {
    const disabled: Disablement = { reason: 'DISABLED_BY_CUSTOMER', message: null };
    return this.move('disable', now, { provisioning: { ...this.state.provisioning, nextAttemptAt: null }, disabled });
  }

  /** Re-enables: with its CVU it is activated, without one it resumes provisioning with a fresh retry budget. */
  activate(now: Date): ReceivableAccount {
    if (this.state.cvu !== null) return this.move('activate', now, { disabled: null });
    return this.move('resumeProvisioning', now, { provisioning: { attempts: 0, nextAttemptAt: now, lastError: null }, disabled: null });
  }

  private failProvisioning(disabled: Disablement, lastError: string, now: Date): ReceivableAccount {
    const attempts = this.state.provisioning.attempts + 1;
    return this.move('failProvisioning', now, { provisioning: { attempts, nextAttemptAt: null, lastError }, disabled });
  }

  private move(operation: ReceivableAccountOperation, now: Date, changes: Partial<ReceivableAccountSnapshot>): ReceivableAccount {
    const status = ReceivableAccount.nextStatus(this.state.status, operation);
    if (!status) throw new InvalidStatusTransitionError('receivable account', this.state.id, this.state.status, ASKED[operation]);
    const next: ReceivableAccountSnapshot = { ...this.state, ...changes, status, modificationDate: now, version: this.state.version + 1 };
    const type =
      status === this.state.status ? null : status === 'ACTIVE' ? 'receivable-account.activated' : status === 'DISABLED' ? 'receivable-account.disabled' : null;
    return new ReceivableAccount(next, type);
  }
}
