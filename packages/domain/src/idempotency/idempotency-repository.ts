/**
 * The response of a request stored under its Idempotency-Key, replayed byte for byte: its body is the JSON text
 * that was sent (null: none), serialised once and kept as it is, so a replay is the first answer's very text.
 */
export interface StoredResponse {
  readonly status: number;
  readonly body: string | null;
  readonly location?: string;
}

export interface IdempotencyClaimRequest {
  readonly credentialId: number;
  readonly key: string;
  /** Hash of method, path and canonical body. */
  readonly fingerprint: string;
  readonly now: Date;
  readonly expiresAt: Date;
}

export type IdempotencyClaim =
  /** First use (or the old record expired): the caller runs the operation and completes the claim. */
  | { readonly kind: 'acquired' }
  /** The key's completed response, kept until `expiresAt`. */
  | { readonly kind: 'replay'; readonly response: StoredResponse; readonly expiresAt: Date }
  | { readonly kind: 'mismatch' }
  /** Held by a request running outside any transaction (a held claim) whose hold has not run out. */
  | { readonly kind: 'in-progress' };

/**
 * A key claimed for an operation that cannot run inside the key's transaction (it opens its own, or calls out): the
 * claim commits at once with no answer and `heldUntil` as its expiry, which its holder moves on while it runs, so a
 * crash mid-way frees the key soon after.
 */
export interface HeldKey {
  readonly credentialId: number;
  readonly key: string;
  readonly heldUntil: Date;
}

/** A completed request's record under its key. */
export interface IdempotencyRecord {
  readonly fingerprint: string;
  readonly response: StoredResponse;
  readonly expiresAt: Date;
}

/**
 * Keys scoped by (credential, key). A claim is made inside the transaction that performs the operation, so the
 * key, the change and its events commit together; a concurrent claim of the same key waits for that transaction
 * (and fails with idempotency-request-in-progress past the wait limit). A held claim (HeldKey) commits alone
 * instead, and a concurrent claim finds it in progress.
 */
export interface IdempotencyRepository {
  claim(request: IdempotencyClaimRequest): Promise<IdempotencyClaim>;
  /** The key's record as committed, without claiming it or waiting on one in flight; undefined when none or expired at `now`. */
  find(credentialId: number, key: string, now: Date): Promise<IdempotencyRecord | undefined>;
  complete(credentialId: number, key: string, response: StoredResponse): Promise<void>;
  /**
   * Stores the answer of a held claim, kept until `expiresAt`; false when the hold is no longer this one's (it ran
   * out and another request took the key over).
   */
  completeHeld(hold: HeldKey, response: StoredResponse, expiresAt: Date): Promise<boolean>;
  /** Moves a held claim's expiry to `until` while its operation runs; false when the hold is no longer this one's. */
  extendHeld(hold: HeldKey, until: Date): Promise<boolean>;
  /** Frees a held claim whose operation kept nothing (an invalid request, a fault); nothing when the hold is gone. */
  releaseHeld(hold: HeldKey): Promise<void>;
  /** Deletes up to `limit` records expired at `now`, leaving any a request is taking over; how many it deleted. */
  purgeExpired(now: Date, limit: number): Promise<number>;
}
