import type { Clock } from '../shared/clock';
import { DomainError } from '../shared/domain-error';
import type { UnitOfWork } from '../shared/unit-of-work';
import type { TransactionScope } from '../transaction-scope';
import type { IdempotencyClaimRequest, StoredResponse } from './idempotency-repository';

/** How long an answer is kept under its key (SPEC: 24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

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
}

export class IdempotencyKeyReuseError extends DomainError {
  constructor() {
    super('idempotency-key-reuse', 'this Idempotency-Key was used with a different request body');
  }
}

/**
 * SPEC idempotency: the key is claimed in the transaction that runs the operation (its use cases join it), so
 * the key, the change, its events and the stored answer commit together; the same key and fingerprint replays the
 * stored answer; another fingerprint is idempotency-key-reuse; a concurrent duplicate waits for the first (up to
 * the lock timeout) and replays it.
 */
export class IdempotentExecution {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'idempotency'>>,
    private readonly clock: Clock,
  ) {}

  /**
   * Runs `operation` under the key and gives its answer. When the operation fails, everything it wrote rolls
   * back with the claim: `keptRefusal` then gives the answer CONTRACT keeps for that error (a business refusal),
   * stored under the key in a transaction of its own, or undefined for an error that keeps nothing (a request
   * refused as invalid, a conflict, a fault): the key stays free for a retry and the error is thrown again.
   */
  async run(
    request: IdempotentRequest,
    operation: () => Promise<StoredResponse>,
    keptRefusal: (error: unknown) => StoredResponse | undefined,
  ): Promise<IdempotentOutcome> {
    const now = this.clock.now();
    const claim: IdempotencyClaimRequest = { ...request, now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) };
    let operationFailed = false;
    try {
      return await this.underKey(claim, () =>
        operation().catch((error: unknown) => {
          operationFailed = true;
          throw error;
        }),
      );
    } catch (error) {
      // A failed claim (reuse, in progress) or commit is not the operation's answer: nothing to keep.
      const refusal = operationFailed ? keptRefusal(error) : undefined;
      if (refusal === undefined) throw error;
      return this.underKey(claim, () => Promise.resolve(refusal));
    }
  }

  /** Claims the key, then answers with `answer` and keeps it, all in one transaction; or replays the key's answer. */
  private underKey(claim: IdempotencyClaimRequest, answer: () => Promise<StoredResponse>): Promise<IdempotentOutcome> {
    return this.uow.run(async (tx) => {
      const claimed = await tx.idempotency.claim(claim);
      if (claimed.kind === 'mismatch') throw new IdempotencyKeyReuseError();
      if (claimed.kind === 'replay') return { response: claimed.response, replayed: true, expiresAt: claimed.expiresAt };
      const response = await answer();
      await tx.idempotency.complete(claim.credentialId, claim.key, response);
      return { response, replayed: false, expiresAt: claim.expiresAt };
    });
  }
}
