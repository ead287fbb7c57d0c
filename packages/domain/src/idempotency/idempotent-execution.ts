import type { Clock } from '../shared/clock';
import { DomainError } from '../shared/domain-error';
import type { UnitOfWork } from '../shared/unit-of-work';
import type { IdempotencyClaim, IdempotencyClaimRequest, StoredResponse } from './idempotency-repository';
import { KeyHold, type KeyScope } from './key-hold';

/** How long an answer is kept under its key (SPEC: 24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** How long a held claim keeps its key unless its holder renews it (it does, every third of this, while it runs). */
export const KEY_HOLD_MS = 60_000;

/**
 * How long a repeat waits for the request still running under its key before 409 idempotency-request-in-progress
 * (CONTRACT: up to 10 s); PostgreSQL's lock_timeout is this too, for a key claimed in a transaction.
 */
export const IDEMPOTENCY_WAIT_MS = 10_000;
const HELD_KEY_POLL_MS = 100;

/** A request under an Idempotency-Key: whose key, and a hash of what it asks (method, path, canonical body). */
export interface IdempotentRequest {
  readonly credentialId: number;
  readonly key: string;
  readonly fingerprint: string;
}

export interface IdempotentOutcome {
  readonly response: StoredResponse;
  /** The key's earlier answer, not this request's: the operation did not run. */
  readonly replayed: boolean;
  /** Until when the key holds this answer. */
  readonly expiresAt: Date;
  /** False when the answer could not be stored under the key (runHeld's hold was lost, or storing failed). */
  readonly kept: boolean;
}

/** How runHeld runs its operation besides the request: how the answer rests, how long a repeat waits, the hold. */
export interface HeldKeyOptions {
  readonly atRest?: AnswerAtRest;
  readonly waitMs?: number;
  readonly holdMs?: number;
  /** A step on the key that failed after the operation ran (storing its answer, renewing, releasing): for a log. */
  readonly onKeyFault?: (error: unknown) => void;
}

/**
 * How an answer rests under its key when it carries what must never rest in clear (a webhook's signing secret):
 * `seal` gives what is stored, `open` gives back from it, for a replay, the very answer that was first sent.
 */
export interface AnswerAtRest {
  seal(response: StoredResponse): StoredResponse;
  open(stored: StoredResponse): StoredResponse;
}

/** Most answers: stored as they were sent. */
export const IN_CLEAR: AnswerAtRest = { seal: (response) => response, open: (stored) => stored };

export class IdempotencyKeyReuseError extends DomainError {
  constructor() {
    super('idempotency-key-reuse', 'this Idempotency-Key was used with a different request (another body, method or path)');
  }
}

/** A repeat of a request still running under its key, past the wait: the client retries (CONTRACT). */
export class IdempotencyRequestInProgressError extends DomainError {
  constructor() {
    super('idempotency-request-in-progress', 'a request with this Idempotency-Key is still being processed; retry later', { retryAfterSeconds: 1 });
  }
}

/**
 * Opens the key's transaction and hands `work` what runs under the key, both bound to that transaction: what the
 * operation calls (the application's use cases) and the unit of work that claims and completes the key.
 */
export type OpenKeyTransaction<Bound> = <T>(work: (bound: Bound, uow: UnitOfWork<KeyScope>) => Promise<T>) => Promise<T>;

/**
 * SPEC idempotency: the key is claimed in the transaction that runs the operation (the operation is handed the use
 * cases bound to it), so the key, the change, its events and the stored answer commit together; the same key and
 * fingerprint replays the stored answer; another fingerprint is idempotency-key-reuse; a concurrent duplicate
 * waits for the first (up to the lock timeout) and replays it.
 */
export class IdempotentExecution<Bound> {
  constructor(
    /**
     * Free: for a key's steps that run outside the operation's transaction (reading a key for `answered`, each step of
     * a held claim); the work of a key claimed with its operation is `begin`'s.
     */
    private readonly outside: UnitOfWork<KeyScope>,
    private readonly clock: Clock,
    private readonly begin: OpenKeyTransaction<Bound>,
  ) {}

  /**
   * The answer a completed request under the key left, read without claiming the key: for a request that has steps
   * to take before the key's transaction (a call to the provider), so a repeat or a reuse is answered before them.
   * Undefined when the key is free, expired or held by a request still running: `run` then decides. A completed
   * record of another fingerprint is idempotency-key-reuse, as `run` would find it.
   */
  async answered(request: IdempotentRequest, atRest: AnswerAtRest = IN_CLEAR): Promise<IdempotentOutcome | undefined> {
    const stored = await this.outside.run((tx) => tx.idempotency.find(request.credentialId, request.key, this.clock.now()));
    if (stored === undefined) return undefined;
    if (stored.fingerprint !== request.fingerprint) throw new IdempotencyKeyReuseError();
    return { response: atRest.open(stored.response), replayed: true, expiresAt: stored.expiresAt, kept: true };
  }

  /**
   * Runs `operation` under the key and gives its answer, all in the transaction that holds the key. The operation
   * runs isolated (a savepoint): when it fails, everything it wrote is undone but the claim stays, and
   * `keptRefusal` gives the answer CONTRACT keeps for that error (a business refusal), stored under the key and
   * committed with the claim, so a duplicate waiting on the key replays it and never runs the operation again; or
   * undefined for an error that keeps nothing (a request refused as invalid, a conflict, a fault): the error is
   * thrown again, the whole transaction rolls back and the key stays free for a retry. `atRest` says how the
   * answer is stored and read back for a replay.
   */
  run(
    request: IdempotentRequest,
    operation: (bound: Bound) => Promise<StoredResponse>,
    keptRefusal: (error: unknown) => StoredResponse | undefined,
    atRest: AnswerAtRest = IN_CLEAR,
  ): Promise<IdempotentOutcome> {
    const now = this.clock.now();
    const claim: IdempotencyClaimRequest = { ...request, now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) };
    return this.begin((bound, uow) =>
      uow.run(async (tx) => {
        const claimed = await tx.idempotency.claim(claim);
        const earlier = answerOf(claimed, atRest);
        if (earlier) return earlier;
        if (claimed.kind === 'in-progress') throw new IdempotencyRequestInProgressError();
        const response = await uow
          .isolated(() => operation(bound))
          .catch((error: unknown) => {
            const refusal = keptRefusal(error);
            if (refusal === undefined) throw error;
            return refusal;
          });
        await tx.idempotency.complete(claim.credentialId, claim.key, atRest.seal(response));
        return { response, replayed: false, expiresAt: claim.expiresAt, kept: true };
      }),
    );
  }

  /**
   * Runs `operation`, which opens its own transactions or calls out and so cannot run inside the key's, under a held
   * claim (KeyHold): the claim commits first, with no answer, and is renewed while the operation runs; its answer, or
   * the refusal `keptRefusal` keeps, is stored after, and an error that keeps nothing releases the key. A repeat
   * meanwhile waits for that answer (up to `waitMs` of real time) and replays it, or is refused as in progress. A
   * crash frees the key within `holdMs`; a repeat then runs the operation again, which must be one whose steps each
   * commit on their own, so that a run after a half-done one completes it.
   */
  async runHeld(
    request: IdempotentRequest,
    operation: () => Promise<StoredResponse>,
    keptRefusal: (error: unknown) => StoredResponse | undefined,
    { atRest = IN_CLEAR, waitMs = IDEMPOTENCY_WAIT_MS, holdMs = KEY_HOLD_MS, onKeyFault = () => undefined }: HeldKeyOptions = {},
  ): Promise<IdempotentOutcome> {
    const now = this.clock.now();
    const heldUntil = new Date(now.getTime() + holdMs);
    // A timer, not the clock: the wait is the caller's, in real time, whatever time the clock tells.
    let waited = false;
    const wait = setTimeout(() => (waited = true), waitMs);
    try {
      for (;;) {
        const claimed = await this.outside.run((tx) => tx.idempotency.claim({ ...request, now: this.clock.now(), expiresAt: heldUntil }));
        const earlier = answerOf(claimed, atRest);
        if (earlier) return earlier;
        if (claimed.kind === 'acquired') break;
        if (waited) throw new IdempotencyRequestInProgressError();
        await new Promise((resolve) => setTimeout(resolve, HELD_KEY_POLL_MS));
      }
    } finally {
      clearTimeout(wait);
    }
    const hold = new KeyHold(this.outside, this.clock, { credentialId: request.credentialId, key: request.key, heldUntil }, holdMs, onKeyFault);
    let response: StoredResponse;
    try {
      response = await operation();
    } catch (error) {
      const refusal = keptRefusal(error);
      if (refusal === undefined) {
        await hold.release();
        throw error;
      }
      response = refusal;
    }
    const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
    return { response, replayed: false, expiresAt, kept: await hold.complete(atRest.seal(response), expiresAt) };
  }
}

/** A claim's answer when the key already has one (replay) or belongs to another request (reuse); else undefined. */
function answerOf(claimed: IdempotencyClaim, atRest: AnswerAtRest): IdempotentOutcome | undefined {
  if (claimed.kind === 'mismatch') throw new IdempotencyKeyReuseError();
  if (claimed.kind === 'replay') return { response: atRest.open(claimed.response), replayed: true, expiresAt: claimed.expiresAt, kept: true };
  return undefined;
}
