const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** CONTRACT: attempts after 0 s, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; each delay counts from the previous failure. */
export const RETRY_DELAYS_MS: readonly number[] = [0, 5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

/**
 * When the attempt at step `failed` + 1 is due after the one at step `failed` failed at `now`; undefined once the
 * schedule is spent, or for an attempt outside it (null: a test delivery, a manual redelivery).
 */
export function nextAttemptAt(failed: number | null, now: Date, scale: number): Date | undefined {
  if (failed === null) return undefined;
  const delay = RETRY_DELAYS_MS[failed];
  return delay === undefined ? undefined : new Date(now.getTime() + Math.round(delay * scale));
}
