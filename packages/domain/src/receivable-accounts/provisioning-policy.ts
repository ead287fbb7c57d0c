/** How hard the provisioning worker tries before it gives an account up (DISABLED). */
export interface ProvisioningPolicy {
  /** Failed provider calls in a row before the account is DISABLED. */
  readonly maxAttempts: number;
  /** First retry delay after a failure; doubles each time up to maxDelayMs, with +-20% jitter. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** How soon to ask again while the provider says PENDING. */
  readonly pendingPollMs: number;
  /** How long a claimed account stays leased to one worker (longer than any provider call). */
  readonly leaseMs: number;
  /**
   * How long a change of an account's alias is claimed (AliasRegistrar): longer than the provider calls it makes,
   * registering, checking and registering back, with the store between them.
   */
  readonly aliasClaimMs: number;
  /**
   * How long the claim of an alias change that failed stands after it (AliasRegistrar): a registration the provider
   * carries out after its caller stopped waiting lands within it, before the reconciliation registers the stored
   * alias again (and no other change registers its own meanwhile); the reconciliation's wait between its tries too.
   */
  readonly aliasSettleMs: number;
  /** Uniform in [0, 1): jitter source. */
  readonly random: () => number;
}

export const DEFAULT_PROVISIONING_POLICY: Omit<ProvisioningPolicy, 'random'> = {
  maxAttempts: 8,
  baseDelayMs: 1_000,
  maxDelayMs: 5 * 60_000,
  pendingPollMs: 500,
  leaseMs: 60_000,
  aliasClaimMs: 120_000,
  aliasSettleMs: 30_000,
};

/** Delay before retry number `attempts` (1-based), exponential with jitter so retries do not arrive in step. */
export function retryDelayMs(policy: ProvisioningPolicy, attempts: number): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(exponential * (0.8 + 0.4 * policy.random()));
}
