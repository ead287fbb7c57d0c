import type { ErrorCode } from './error-codes';

/** A broken business rule or a refused request, named by its stable wire code. Thrown, never returned. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra Problem JSON members SPEC lists for this code (existingResourceId, missingFields, ...). */
    readonly extras: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/**
 * A refusal for meeting concurrent changes (a version check, a deadlock's victim, a lock waited for too long):
 * transient, nothing was broken, and the same request again may go through.
 */
export const isConcurrentModification = (error: unknown): error is DomainError => error instanceof DomainError && error.code === 'concurrent-modification';

export interface InvalidParam {
  readonly name: string;
  readonly reason: string;
}

/** 400 validation with the parameters at fault. */
export class ValidationError extends DomainError {
  constructor(readonly invalidParams: readonly InvalidParam[]) {
    super('validation', invalidParams.map((p) => `${p.name}: ${p.reason}`).join('; '), { invalidParams });
  }

  static of(name: string, reason: string): ValidationError {
    return new ValidationError([{ name, reason }]);
  }
}

export class NotFoundError extends DomainError {
  constructor(resource: string, id: string | number) {
    super('resource-not-found', `${resource} ${id} does not exist`);
  }
}

/** Another customer's resource: 403 resource-not-accessible, and no effect (CONTRACT "tenancy"). */
export class NotAccessibleError extends DomainError {
  constructor(resource: string, id: string | number) {
    super('resource-not-accessible', `${resource} ${id} belongs to another customer`);
  }
}

/** An optimistic version check failed: someone changed the row since it was read. */
export class ConcurrentModificationError extends DomainError {
  constructor(resource: string, id: string | number) {
    super('concurrent-modification', `${resource} ${id} was modified by another request; read it again and retry`);
  }
}

/**
 * The storage undid this operation to break a cycle of waits with a concurrent one (a deadlock): nothing was
 * written, and the same request can simply be sent again.
 */
export class TransactionConflictError extends DomainError {
  constructor() {
    super('concurrent-modification', 'another operation changed the same records at the same time; nothing was written, retry the request');
  }
}

/** `change` is what was asked, in the API's words ("marked PAID"), never an internal operation name. */
export class InvalidStatusTransitionError extends DomainError {
  constructor(resource: string, id: number, from: string, change: string) {
    super('invalid-status-transition', `${resource} ${id} is ${from} and cannot be ${change}`);
  }
}
