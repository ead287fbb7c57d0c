import { appendFileSync } from 'node:fs';
import type { TestDefinition } from '@rcs/domain/testing';

/** Names the file where skipped tests are kept for the end-of-run summary (skipped-tests-reporter.ts sets it). */
export const SKIPPED_TESTS_FILE = 'RCS_TEST_SKIPPED_FILE';

/** One test `itOnRealServer` skipped, as written to that file, one JSON line each. */
export interface SkippedTest {
  readonly file: string;
  readonly title: string;
  readonly reason: string;
}

/**
 * `it` for a test whose claim only a PostgreSQL server can prove: on embedded PGlite (one backend behind one
 * connection, so every transaction waits for the one before, and one process only) it would pass without proving
 * it. There it is skipped, and `reason` is kept for the summary that ends the run.
 */
export function itOnRealServer(reason: string): TestDefinition {
  if (process.env.RCS_TEST_STORAGE !== 'pglite') return it;
  return (title, fn, timeout) => {
    const records = process.env[SKIPPED_TESTS_FILE];
    const skipped: SkippedTest = { file: expect.getState().testPath ?? 'unknown file', title, reason };
    if (records) appendFileSync(records, `${JSON.stringify(skipped)}\n`);
    it.skip(title, fn, timeout);
  };
}
