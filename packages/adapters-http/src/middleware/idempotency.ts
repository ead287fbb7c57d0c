import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import {
  DomainError,
  isConcurrentModification,
  IdempotencyKeyReuseError,
  IN_CLEAR,
  ValidationError,
  type AnswerAtRest,
  type Application,
  type Clock,
  type IdempotentOutcome,
  type IdempotentRequest,
  type StoredResponse,
} from '@rcs/domain';
import { authOf } from '../auth/authenticate';
import { sendResponse, serialized, type AnswerHandler, type KeyedHandler } from '../routes/answer';
import { problemOfError } from './problem';
import { ReplayCache } from './replay-cache';

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

/**
 * The path of the route the request reached, as the route names it: Express matches a route's fixed segments in any
 * case and with or without a trailing slash, so `/V1/Clients/` is `/v1/clients`; parameters as sent, since they may
 * tell resources apart by case, encoded again so that none reads as more segments. A request reaching no route keeps
 * its path as sent.
 */
function routePath(req: Request): string {
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern !== 'string') return `${req.baseUrl}${req.path}`;
  return req.baseUrl.toLowerCase() + pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(req.params[name])));
}

/** SHA-256 (base64url) of the request's method and route path, a newline, then `parts`: both fingerprints' one shape. */
function requestDigest(req: Request, ...parts: ReadonlyArray<string | Buffer>): string {
  const hash = createHash('sha256').update(`${req.method} ${routePath(req)}\n`);
  for (const part of parts) hash.update(part);
  return hash.digest('base64url');
}

/** Refusals that are the operation's answer to what was asked (CONTRACT "Idempotency"): asking again changes nothing. */
const KEPT_REFUSALS: ReadonlySet<number> = new Set([403, 404, 409, 422]);

/**
 * The answer kept under the key for an error of the operation: business refusals. The rest keep nothing and
 * release the key, as Stripe does: a request refused as invalid (400, even when the use case finds it so) is to
 * be corrected and sent again under the same key, and a 5xx or concurrent-modification says when the request
 * came rather than what it asked.
 */
function keptRefusal(error: unknown): StoredResponse | undefined {
  if (!(error instanceof DomainError) || isConcurrentModification(error)) return undefined;
  const { problem } = problemOfError(error);
  return KEPT_REFUSALS.has(problem.status) ? serialized({ status: problem.status, body: problem }) : undefined;
}

/**
 * Each Idempotency-Key header the request carries, apart: Node joins repeated headers with ", ", and a retry carrying
 * either one alone would not match the joined key.
 */
const keyHeaders = (req: Request): string[] => req.headersDistinct['idempotency-key'] ?? [];

/** The request's Idempotency-Key, checked; undefined when it has none and may go without. */
function keyOf(req: Request, required: boolean): string | undefined {
  const [key, ...more] = keyHeaders(req);
  if (more.length > 0) throw ValidationError.of('Idempotency-Key', 'header is sent more than once: send one key');
  if (key === undefined) {
    if (required) throw ValidationError.of('Idempotency-Key', 'header is required for this operation');
    return undefined;
  }
  // Node reads a header's bytes as Latin-1; SPEC's limit is in characters, so they are counted as UTF-8 decodes them.
  const characters = [...Buffer.from(key, 'latin1').toString('utf8')].length;
  if (characters === 0 || characters > MAX_KEY_LENGTH) {
    throw ValidationError.of('Idempotency-Key', `must be 1 to ${MAX_KEY_LENGTH} characters`);
  }
  return key;
}

/** What the handlers of one set share. */
interface KeyContext {
  readonly app: Application;
  readonly clock: Clock;
  readonly replays: ReplayCache;
  /** How their answers are stored under the key (the database); the replay cache is process memory and keeps them as sent. */
  readonly atRest: AnswerAtRest;
  /** A held key's step that failed after its operation ran: the answer stands, the key frees itself; for a log. */
  readonly onKeyFault: (error: unknown) => void;
}

/**
 * How an operation runs under a key: in the key's transaction (`run`, handed the use cases bound to it) or beside a
 * held claim (`runHeld`, for one that opens its own transactions or calls out).
 */
type UnderKey = (request: IdempotentRequest, req: Request) => Promise<IdempotentOutcome>;

/**
 * `handler` under the request's Idempotency-Key: `underKey` runs it (SPEC idempotency), a repeat is replayed, and
 * completed answers are kept in `replays` too, so a repeat usually costs no database round trip. Mount after the
 * body is validated: the fingerprint covers the whitelisted body.
 */
function idempotent({ clock, replays }: KeyContext, required: boolean, unkeyed: AnswerHandler, underKey: UnderKey): RequestHandler {
  return async (req, res) => {
    const key = keyOf(req, required);
    if (key === undefined) return sendResponse(res, serialized(await unkeyed(req)));
    const { credentialId } = authOf(req);
    const fingerprint = fingerprintOf(req);
    const cached = replays.get(credentialId, key, clock.now());
    if (cached) {
      if (cached.fingerprint !== fingerprint) throw new IdempotencyKeyReuseError();
      return sendReplay(res, cached.response);
    }
    const outcome = await underKey({ credentialId, key, fingerprint }, req);
    // An answer the key could not keep is not this process's to replay either: every instance answers a repeat alike.
    if (outcome.kept) replays.remember(credentialId, key, fingerprint, rawFingerprintOf(req), outcome.response, outcome.expiresAt);
    if (outcome.replayed) sendReplay(res, outcome.response);
    else sendResponse(res, outcome.response);
  };
}

/** `handler` in the key's transaction: the use cases it is handed are bound to it, so they commit with the key. */
function inKeyTransaction(context: KeyContext, required: boolean, handler: KeyedHandler): RequestHandler {
  const { app, atRest } = context;
  // A handler that names no use cases would call ones it closed over: outside the key's transaction.
  if (handler.length < 2) throw new TypeError('a keyed handler takes (req, app) and calls the use cases it is handed');
  return idempotent(
    context,
    required,
    (req) => handler(req, app),
    (request, req) => app.idempotency.execution.run(request, async (bound) => serialized(await handler(req, bound)), keptRefusal, atRest),
  );
}

/** `handler`, which opens its own transactions or calls out, beside a held claim of the key sent (if one is). */
function besideHeldKey(context: KeyContext, handler: AnswerHandler): RequestHandler {
  const { app, atRest, onKeyFault } = context;
  return idempotent(context, false, handler, (request, req) =>
    app.idempotency.execution.runHeld(request, async () => serialized(await handler(req)), keptRefusal, { atRest, onKeyFault }),
  );
}

/** The validated body's fingerprint: what a key's record is matched on. */
const fingerprintOf = (req: Request): string => requestDigest(req, canonicalJson(req.body ?? null));

/**
 * Before steps that run ahead of the key's transaction (a call to the provider): a key a completed request left
 * answers now, with its replay or idempotency-key-reuse, and those steps never run for it (SPEC idempotency). A
 * free key, or one held by a request still running, goes on: the key's handler claims it as ever.
 */
function answeredEarlier({ app, replays, atRest }: KeyContext, required: boolean): RequestHandler {
  return async (req, res, next) => {
    const key = keyOf(req, required);
    if (key === undefined) return next();
    const { credentialId } = authOf(req);
    const fingerprint = fingerprintOf(req);
    const earlier = await app.idempotency.execution.answered({ credentialId, key, fingerprint }, atRest);
    if (earlier === undefined) return next();
    replays.remember(credentialId, key, fingerprint, rawFingerprintOf(req), earlier.response, earlier.expiresAt);
    sendReplay(res, earlier.response);
  };
}

function sendReplay(res: Response, response: StoredResponse): void {
  res.setHeader('Idempotent-Replayed', 'true');
  sendResponse(res, response);
}

/**
 * Answers a repeat that this process already answered, sent with the same bytes, before its body is validated
 * again: the same bytes validate to the same body, so its fingerprint would match. Anything else goes on to
 * validation and the key's handler (a body differing only in ignored fields replays there).
 */
function cachedReplay(clock: Clock, replays: ReplayCache): RequestHandler {
  return (req, res, next) => {
    // A key header sent more than once is the key's handler's to refuse.
    const [key, ...more] = keyHeaders(req);
    const cached = key === undefined || more.length > 0 ? undefined : replays.get(authOf(req).credentialId, key, clock.now());
    if (cached?.sentAs === undefined || cached.sentAs !== rawFingerprintOf(req)) return next();
    sendReplay(res, cached.response);
  };
}

/** The idempotency handlers of one HTTP app, sharing its replay cache. */
export interface IdempotencyKeys {
  /** Before body validation: a repeat of an answered request, byte for byte, is answered from the cache. */
  readonly cachedReplay: RequestHandler;
  /** Ahead of steps outside the key's transaction: a key already answered replays or is refused as reused here. */
  answeredEarlier(key: 'required' | 'optional'): RequestHandler;
  /** `handler` where the Idempotency-Key header must be present (SPEC: creations of money-bearing resources). */
  required(handler: KeyedHandler): RequestHandler;
  /** `handler` under the Idempotency-Key when one is sent. */
  optional(handler: KeyedHandler): RequestHandler;
  /**
   * `handler` under the Idempotency-Key when one is sent, for an operation no transaction may stay open across (it
   * calls out, or commits step by step): the key is held while it runs and its answer stored after.
   */
  held(handler: AnswerHandler): RequestHandler;
  /** These handlers, for answers that carry what must not rest in clear: stored as `atRest` seals them. */
  sealedBy(atRest: AnswerAtRest): IdempotencyKeys;
}

export function idempotencyKeys(app: Application, clock: Clock, onKeyFault: (error: unknown) => void = () => undefined): IdempotencyKeys {
  return keysOf({ app, clock, replays: new ReplayCache(), atRest: IN_CLEAR, onKeyFault });
}

function keysOf(context: KeyContext): IdempotencyKeys {
  return {
    cachedReplay: cachedReplay(context.clock, context.replays),
    required: (handler) => inKeyTransaction(context, true, handler),
    optional: (handler) => inKeyTransaction(context, false, handler),
    held: (handler) => besideHeldKey(context, handler),
    answeredEarlier: (key) => answeredEarlier(context, key === 'required'),
    sealedBy: (atRest) => keysOf({ ...context, atRest }),
  };
}
