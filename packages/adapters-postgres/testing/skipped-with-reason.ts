import { appendFileSync } from 'node:fs';
import type { TestDefinition } from '@rcs/domain/testing';

/** Names the file where skipped tests are kept for the end-of-run summary (skipped-tests-reporter.ts sets it). */
export const SKIPPED_TESTS_FILE = 'RCS_TEST_SKIPPED_FILE';

/** One test skipped with a reason, as written to that file, one JSON line each. */
export interface SkippedTest {
  readonly file: string;
  readonly title: string;
  readonly reason: string;
}

/**
 * `it`, or, given a reason to skip, `it.skip` with that reason kept for the summary that ends the run: a skip that
 * says why, where a bare `it.skip` would be listed as unexplained.
 */
export function itUnless(skipReason: string | undefined): TestDefinition {
  if (skipReason === undefined) return it;
  return (title, fn, timeout) => {
    const records = process.env[SKIPPED_TESTS_FILE];
    const skipped: SkippedTest = { file: expect.getState().testPath ?? 'unknown file', title, reason: skipReason };
    if (records) appendFileSync(records, `${JSON.stringify(skipped)}\n`);
    it.skip(title, fn, timeout);
  };
}
