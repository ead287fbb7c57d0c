import type { Response } from 'express';
import type { DomainError, ErrorCode } from '@rcs/domain';

/** Each code's HTTP status. A code added to the domain without a status here fails to compile. */
export const STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = {
  validation: 400,
  'invalid-format': 400,
  'invalid-credentials': 401,
  unauthorized: 401,
  'invalid-token': 401,
  'token-expired': 401,
  forbidden: 403,
  'insufficient-scope': 403,
  'resource-not-accessible': 403,
  'resource-not-found': 404,
  'method-not-allowed': 405,
  'idempotency-key-reuse': 409,
  'idempotency-request-in-progress': 409,
  'concurrent-modification': 409,
  'payload-too-large': 413,
  'unsupported-media-type': 415,
  'rate-limit-exceeded': 429,
  'internal-error': 500,
  'external-provider-unavailable': 502,
  'external-provider-timeout': 504,
  'invalid-status-transition': 422,
  'receivable-account-already-exists': 409,
  'alias-already-in-use': 409,
  'receivable-account-requires-owner': 422,
  'receivable-account-owner-immutable': 422,
  'receivable-account-not-active': 422,
  'owner-type-not-supported': 422,
  'current-account-not-receivable-enabled': 422,
  'unmatching-receivable-currency-code': 422,
  'unmatching-receivable-client-id': 422,
  'receivable-account-associate-conflict': 422,
  'missing-parent-receivable': 422,
  'parent-receivable-not-modifiable': 422,
  'parent-receivable-different-account': 422,
  'parent-receivable-invalid-type': 422,
  'child-receivables-exceed-parent-amount': 422,
  'receivable-has-related-items': 422,
  'updating-receivable-final-status': 422,
  'missing-invoice-fields': 422,
  'duplicated-legal-number': 409,
  'unmatching-movement-currency-code': 422,
  'unmatching-transfer-currency-code': 422,
  'equal-origin-destination': 422,
  'source-account-not-active': 422,
  'transfer-not-cancelable': 422,
  'receivable-account-not-transfer-enabled': 422,
  'duplicated-contact': 409,
  'incomplete-branch': 422,
  'associate-disabled': 422,
  'route-code-already-used': 422,
  // SPEC gives route-code-already-used two statuses; the domain names the 409 case apart, the wire code is one.
  'route-code-already-used-for-date': 409,
  'invalid-event-type': 400,
  'webhook-status-conflict': 422,
};

/** Wire codes that differ from the domain's name for them. */
const WIRE_CODE: Partial<Record<ErrorCode, string>> = {
  'route-code-already-used-for-date': 'route-code-already-used',
};

/** The code a caller sees for a domain code. */
export const wireCodeOf = (code: ErrorCode): string => WIRE_CODE[code] ?? code;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface ProblemBody {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: string;
  readonly [extra: string]: unknown;
}

function titleOf(code: string): string {
  const words = code.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function problemOf(code: ErrorCode, detail: string, extras: Readonly<Record<string, unknown>> = {}): ProblemBody {
  return { ...wireProblem(wireCodeOf(code), STATUS_BY_CODE[code], detail), ...extras };
}

/** A Problem body by its wire code and status, for answers no domain code names (what Node's HTTP parser refuses). */
export function wireProblem(wire: string, status: number, detail: string): ProblemBody {
  return { type: `https://docs.receivables.example/errors/${wire}`, title: titleOf(wire), status, detail, code: wire };
}

/** A domain error's Problem body; `retryAfterSeconds`, an extra of some codes, is for the Retry-After header instead. */
export function problemOfError(error: DomainError): { problem: ProblemBody; retryAfterSeconds?: number } {
  const { retryAfterSeconds, ...extras } = error.extras as { retryAfterSeconds?: number };
  return { problem: problemOf(error.code, error.message, extras), ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) };
}

export function sendProblem(res: Response, problem: ProblemBody): void {
  res.status(problem.status).type(PROBLEM_CONTENT_TYPE).json(problem);
}
