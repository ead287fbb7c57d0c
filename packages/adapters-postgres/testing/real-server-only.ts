import type { TestDefinition } from '@rcs/domain/testing';
import { itUnless } from './skipped-with-reason';

/**
 * `it` for a test whose claim only a PostgreSQL server can prove: on embedded PGlite (one backend behind one
 * connection, so every transaction waits for the one before, and one process only) it would pass without proving
 * it. There it is skipped, and `reason` is kept for the summary that ends the run.
 */
export function itOnRealServer(reason: string): TestDefinition {
  return itUnless(process.env.RCS_TEST_STORAGE === 'pglite' ? reason : undefined);
}
