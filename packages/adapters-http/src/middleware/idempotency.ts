import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { DomainError, ValidationError, type Clock, type IdempotencyClaim, type IdempotencyClaimRequest, type StoredResponse, type UnitOfWork } from '@rcs/domain';
import { authOf } from '../auth/authenticate';
import { captureResponse, sendStored } from './capture-response';
import { PROBLEM_CONTENT_TYPE } from './problem';
import { ReplayCache } from './replay-cache';

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

type Outcome = Exclude<IdempotencyClaim, { kind: 'acquired' }> | { readonly kind: 'executed'; readonly response: StoredResponse };

/** Thrown inside the transaction to roll back an attempt that did not succeed: none of its writes may stay. */
class Undo extends Error {
  constructor(readonly response: StoredResponse) {
    super('undo the failed attempt');
  }
}

/**
 * SPEC idempotency: the key is claimed in the same transaction as the operation (use cases join it), so key,
 * change and events commit together; the same key and body replays the stored response; another body gets 409
 * idempotency-key-reuse; a concurrent duplicate waits for the first (up to the lock timeout) and replays it.
 * A refused request (4xx) rolls back whatever it wrote and stores its answer in a transaction of its own.
 * Completed responses are kept in `replays` too, so a repeat usually costs no database round trip.
 * Mount after the body is parsed: the fingerprint covers the whitelisted body.
 */
export function idempotent(uow: UnitOfWork, clock: Clock, replays: ReplayCache, options: { required: boolean }): RequestHandler {
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
    const claim: IdempotencyClaimRequest = { credentialId, key, fingerprint, now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) };
    // Claims the key, then answers with `respond` and keeps its response, all in one transaction.
    const underKey = (respond: () => Promise<StoredResponse>) =>
      uow.run(async (tx): Promise<Outcome> => {
        const claimed = await tx.idempotency.claim(claim);
        if (claimed.kind !== 'acquired') return claimed;
        const response = await respond();
        await tx.idempotency.complete(credentialId, key, response);
        return { kind: 'executed', response };
      });
    const attempt = async (): Promise<Outcome> => {
      try {
        return await underKey(async () => {
          const response = await captureResponse(res, next);
          if (response.status >= 400) throw new Undo(response);
          return response;
        });
      } catch (error) {
        if (!(error instanceof Undo)) throw error;
        return keeps(error.response) ? underKey(async () => error.response) : { kind: 'executed', response: error.response };
      }
    };

    const cached = replays.get(credentialId, key, now);
    const outcome: Outcome = cached
      ? cached.fingerprint === fingerprint
        ? { kind: 'replay', response: cached.response, expiresAt: new Date(cached.expiresAt) }
        : { kind: 'mismatch' }
      : await attempt();
    if (outcome.kind === 'mismatch') {
      throw new DomainError('idempotency-key-reuse', 'this Idempotency-Key was used with a different request body');
    }
    if (outcome.kind === 'replay') {
      if (!cached) replays.remember(credentialId, key, fingerprint, outcome.response, outcome.expiresAt);
      res.setHeader('Idempotent-Replayed', 'true');
      return sendStored(res, outcome.response, outcome.response.status >= 400 ? PROBLEM_CONTENT_TYPE : 'json');
    }
    if (keeps(outcome.response)) replays.remember(credentialId, key, fingerprint, outcome.response, claim.expiresAt);
    sendStored(res, outcome.response);
  };
}

/** The two idempotency middlewares of one HTTP app, sharing its replay cache. */
export interface IdempotencyKeys {
  /** The Idempotency-Key header must be present (SPEC: creations of money-bearing resources). */
  readonly required: RequestHandler;
  /** Used when present. */
  readonly optional: RequestHandler;
}

export function idempotencyKeys(uow: UnitOfWork, clock: Clock, replays = new ReplayCache()): IdempotencyKeys {
  return { required: idempotent(uow, clock, replays, { required: true }), optional: idempotent(uow, clock, replays, { required: false }) };
}
