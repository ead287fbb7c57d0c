/** How the transfer worker pays: chunk sizes, how many payouts are in flight at once, its lease, when it gives up. */
export interface PayoutPolicy {
  /** Transfers claimed and debited per transaction. */
  readonly chunkSize: number;
  /** Chunks claimed side by side in one run (one debits while another's payouts are in flight). */
  readonly loops: number;
  /** Payout calls in flight at once per chunk. */
  readonly concurrency: number;
  /**
   * How long a claimed transfer stays with its worker: at least twice the provider client's worst case for one call,
   * as payouts start in the lease's first half only, so each has ended before the lease does.
   */
  readonly leaseMs: number;
  /**
   * Sends of a payout the provider never took (it was down each time) before the next pass gives it up: the
   * transfer FAILS with provider-unavailable and its debit is returned, only on the provider's word that it holds
   * no payout under the transfer's id.
   */
  readonly maxAttempts: number;
  /**
   * How long a run goes on resolving aliases, chunk after chunk, before it debits (a chunk started is finished): the
   * due transfers naming their CBU/CVU are not held up by a backlog of aliases, and the rest wait for the next run.
   */
  readonly aliasWalkMs: number;
}

export const DEFAULT_PAYOUT_POLICY: PayoutPolicy = { chunkSize: 500, loops: 2, concurrency: 32, leaseMs: 120_000, maxAttempts: 10, aliasWalkMs: 30_000 };

/** The provider's idempotency key for a transfer's payout: stable, so sending it again never pays again. */
export const payoutIdOf = (transferId: number) => `tr-${transferId}`;

/** Runs `work` over `items` with at most `limit` in flight; results in the items' order. */
export async function inParallel<I, T>(items: readonly I[], limit: number, work: (item: I) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
