import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { DomainError, ValidationError, type Clock, type IdempotencyQueries, type StoredResponse, type UnitOfWork } from '@rcs/domain';
import { authOf } from '../auth/authenticate';
import { captureResponse, sendStored } from './capture-response';
import { PROBLEM_CONTENT_TYPE } from './problem';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_KEY_LENGTH = 255;

/** Sorted-key JSON, so the same body written in another key order has the same fingerprint. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Kept results: everything below 500 except 429, which, like 5xx, releases the key so a retry runs again. */
const keeps = (response: StoredResponse) => response.status < 500 && response.status !== 429;

/** Thrown inside the transaction to roll back an attempt whose result must not be kept. */
class ReleaseKey extends Error {
  constructor(readonly response: StoredResponse) {
    super('release idempotency key');
  }
}

/**
 * SPEC idempotency: the key is claimed in the same transaction as the operation (use cases join it as a
 * savepoint), so key, change and events commit together; the same key and body replays the stored response;
 * another body gets 409 idempotency-key-reuse; a concurrent duplicate waits for the first (up to the lock
 * timeout) and replays it. Mount after the body is parsed: the fingerprint covers the whitelisted body.
 */
export function idempotent(uow: UnitOfWork, clock: Clock, stored: IdempotencyQueries, options: { required: boolean }): RequestHandler {
  return async (req, res, next) => {
    const key = req.header('idempotency-key');
    if (key === undefined) {
      if (options.required) throw ValidationError.of('Idempotency-Key', 'header is required for this operation');
      return next();
    }
    if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
      throw ValidationError.of('Idempotency-Key', `must be 1 to ${MAX_KEY_LENGTH} characters`);
    }
    const { credentialId } = authOf(req);
    const fingerprint = createHash('sha256')
      .update(`${req.method} ${req.baseUrl}${req.path}\n${canonicalJson(req.body ?? null)}`)
      .digest('base64url');
    const now = clock.now();
    const claimAndRun = () =>
      uow
        .run(async (tx) => {
          const claim = await tx.idempotency.claim({ credentialId, key, fingerprint, now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) });
          if (claim.kind !== 'acquired') return claim;
          const response = await captureResponse(res, next);
          if (!keeps(response)) throw new ReleaseKey(response);
          await tx.idempotency.complete(credentialId, key, response);
          return { kind: 'executed' as const, response };
        })
        .catch((error: unknown) => {
          if (error instanceof ReleaseKey) return { kind: 'executed' as const, response: error.response };
          throw error;
        });
    // Fast path: a completed key replays from one lock-free read, so repeats of one key do not queue on its row.
    const done = await stored.findCompleted(credentialId, key, now);
    const outcome = done
      ? done.fingerprint === fingerprint
        ? ({ kind: 'replay', response: done.response } as const)
        : ({ kind: 'mismatch' } as const)
      : await claimAndRun();
    if (outcome.kind === 'mismatch') {
      throw new DomainError('idempotency-key-reuse', 'this Idempotency-Key was used with a different request body');
    }
    if (outcome.kind === 'replay') {
      res.setHeader('Idempotent-Replayed', 'true');
      return sendStored(res, outcome.response, outcome.response.status >= 400 ? PROBLEM_CONTENT_TYPE : undefined);
    }
    sendStored(res, outcome.response);
  };
}
