/** SQLSTATEs the adapters react to. */
export const PG_LOCK_NOT_AVAILABLE = '55P03';

export function pgCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

export const PG_UNIQUE_VIOLATION = '23505';

/** The constraint a unique violation broke, if that is what the error is. */
export function violatedConstraint(error: unknown): string | undefined {
  return pgCode(error) === PG_UNIQUE_VIOLATION ? (error as { constraint?: string }).constraint : undefined;
}
