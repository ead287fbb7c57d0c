/** SQLSTATEs the adapters react to. */
export const PG_LOCK_NOT_AVAILABLE = '55P03';
/** A statement refused because an earlier one aborted its transaction: a consequence, never a cause. */
export const PG_IN_FAILED_TRANSACTION = '25P02';

export function pgCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

export const PG_UNIQUE_VIOLATION = '23505';

/**
 * PostgreSQL undid the transaction to break a deadlock (40P01), could not serialize it (40001), or gave up waiting
 * for a row another transaction held longer than lock_timeout (55P03): each is the caller's to retry.
 */
export const isTransactionConflict = (error: unknown) => ['40P01', '40001', PG_LOCK_NOT_AVAILABLE].includes(pgCode(error) ?? '');

/** A prepared statement whose result columns changed under it (a migration added or dropped one). */
export const isStalePreparedStatement = (error: unknown) =>
  pgCode(error) === '0A000' && /cached plan must not change result type/.test((error as Error).message);

/** The constraint a unique violation broke, if that is what the error is. */
export function violatedConstraint(error: unknown): string | undefined {
  return pgCode(error) === PG_UNIQUE_VIOLATION ? (error as { constraint?: string }).constraint : undefined;
}
