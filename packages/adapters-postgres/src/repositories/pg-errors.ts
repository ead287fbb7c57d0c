/** SQLSTATEs the adapters react to. */
export const PG_LOCK_NOT_AVAILABLE = '55P03';

export function pgCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}
