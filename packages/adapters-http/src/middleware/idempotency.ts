import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
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

/** The JSON parser's `verify` keeps the bytes of each body it parsed here, for rawFingerprintOf. */
const RAW_BODY = Symbol('raw body');
type WithRawBody = Request & { [RAW_BODY]?: Buffer };

export const keepRawBody = (req: Request, _res: unknown, bytes: Buffer) => {
  (req as WithRawBody)[RAW_BODY] = bytes;
};

/**
 * The request as sent: method, path, content type (its charset decides how the bytes read) and body bytes, which
 * then always parse and validate the same way; undefined when the JSON parser kept no bytes (no JSON body, or a
 * parser without keepRawBody): no shortcut then.
 */
function rawFingerprintOf(req: Request): string | undefined {
  const bytes = (req as WithRawBody)[RAW_BODY];
  if (bytes === undefined) return undefined;
  return requestDigest(req, `${req.header('content-type')}\n`, bytes);
}

/** SHA-256 (base64url) of the request's method and path, a newline, then `parts`: both fingerprints' one shape. */
function requestDigest(req: Request, ...parts: ReadonlyArray<string | Buffer>): string {
  const hash = createHash('sha256').update(`${req.method} ${req.baseUrl}${req.path}\n`);
  for (const part of parts) hash.update(part);
  return hash.digest('base64url');
}

/** Refusals that are the operation's answer to what was asked (CONTRACT "Idempotency"): asking again changes nothing. */
const KEPT_REFUSALS: ReadonlySet<number> = new Set([403, 404, 409, 422]);

/**
 * Kept results: successes and business refusals. The rest keep nothing and release the key, as Stripe does: a
 * request refused as invalid (400, even when the use case finds it so) or before the operation (401, 413, 415,
 * 429) is to be corrected and sent again under the same key, and a 5xx or concurrent-modification says when the
 * request came rather than what it asked.
 */
const keeps = (response: StoredResponse) =>
  (response.status < 400 || KEPT_REFUSALS.has(response.status)) && (response.body as { code?: unknown } | null)?.code !== 'concurrent-modification';

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
 * A refused request (4xx) rolls back whatever it wrote; a business refusal's answer is then kept in a transaction
 * of its own.
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
    const fingerprint = requestDigest(req, canonicalJson(req.body ?? null));
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
      if (!cached) replays.remember(credentialId, key, fingerprint, rawFingerprintOf(req), outcome.response, outcome.expiresAt);
      return sendReplay(res, outcome.response);
    }
    if (keeps(outcome.response)) replays.remember(credentialId, key, fingerprint, rawFingerprintOf(req), outcome.response, claim.expiresAt);
    sendStored(res, outcome.response);
  };
}

function sendReplay(res: Response, response: StoredResponse): void {
  res.setHeader('Idempotent-Replayed', 'true');
  sendStored(res, response, response.status >= 400 ? PROBLEM_CONTENT_TYPE : 'json');
}

/**
 * Answers a repeat that this process already answered, sent with the same bytes, before its body is validated
 * again: the same bytes validate to the same body, so its fingerprint would match. Anything else goes on to
 * validation and the key's middleware (a body differing only in ignored fields replays there).
 */
function cachedReplay(clock: Clock, replays: ReplayCache): RequestHandler {
  return (req, res, next) => {
    const key = req.header('idempotency-key');
    const cached = key === undefined ? undefined : replays.get(authOf(req).credentialId, key, clock.now());
    if (cached?.sentAs === undefined || cached.sentAs !== rawFingerprintOf(req)) return next();
    sendReplay(res, cached.response);
  };
}

/** The idempotency middlewares of one HTTP app, sharing its replay cache. */
export interface IdempotencyKeys {
  /** Before body validation: a repeat of an answered request, byte for byte, is answered from the cache. */
  readonly cachedReplay: RequestHandler;
  /** The Idempotency-Key header must be present (SPEC: creations of money-bearing resources). */
  readonly required: RequestHandler;
  /** Used when present. */
  readonly optional: RequestHandler;
}

export function idempotencyKeys(uow: UnitOfWork, clock: Clock, replays = new ReplayCache()): IdempotencyKeys {
  return {
    cachedReplay: cachedReplay(clock, replays),
    required: idempotent(uow, clock, replays, { required: true }),
    optional: idempotent(uow, clock, replays, { required: false }),
  };
}
