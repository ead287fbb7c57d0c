import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AggregatedResult, Reporter } from '@jest/reporters';
import type { Config } from '@jest/types';
import { SKIPPED_TESTS_FILE, type SkippedTest } from './skipped-with-reason';

const key = (file: string, title: string) => `${file}\n${title}`;

/**
 * Ends the run by saying what it did not prove: every test skipped with a reason (`itUnless`; on embedded PGlite,
 * each `itOnRealServer`), under that reason, and any `it.skip` as unexplained; or that nothing was skipped. Loaded
 * by jest from the build (jest does not compile reporters), as the global setup loads the embedded server.
 */
export default class SkippedTestsReporter implements Reporter {
  private readonly records = path.join(os.tmpdir(), `rcs-skipped-tests-${process.pid}-${randomBytes(4).toString('hex')}.jsonl`);

  constructor(private readonly globalConfig: Config.GlobalConfig) {
    // Test workers start after the reporters and inherit the variable.
    process.env[SKIPPED_TESTS_FILE] = this.records;
  }

  onRunStart(): void {
    rmSync(this.records, { force: true });
  }

  onRunComplete(_contexts: unknown, results: AggregatedResult): void {
    const reasons = new Map(this.readRecords().map((s) => [key(s.file, s.title), s.reason]));
    rmSync(this.records, { force: true });
    // A name filter (-t) skips every test it does not match: those are not worth listing.
    const filtered = Boolean(this.globalConfig.testNamePattern);
    const unexplained = filtered ? undefined : 'skipped by it.skip, without a reason';
    const byReason = new Map<string, string[]>();
    for (const file of results.testResults) {
      for (const test of file.testResults.filter((t) => t.status === 'pending')) {
        const reason = reasons.get(key(file.testFilePath, test.title)) ?? unexplained;
        if (!reason) continue;
        const name = `${path.relative(this.globalConfig.rootDir, file.testFilePath)} › ${test.fullName}`;
        byReason.set(reason, [...(byReason.get(reason) ?? []), name]);
      }
    }
    process.stderr.write(`\n${summary(process.env.RCS_TEST_STORAGE, byReason, filtered)}\n`);
  }

  getLastError(): undefined {
    return undefined;
  }

  private readRecords(): SkippedTest[] {
    let text: string;
    try {
      text = readFileSync(this.records, 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as SkippedTest);
  }
}

function summary(storage: string | undefined, byReason: Map<string, string[]>, filtered: boolean): string {
  const where = storage === 'pglite' ? 'embedded PGlite (one connection, one process)' : 'a PostgreSQL server';
  if (byReason.size === 0) {
    return filtered ? `Nothing was skipped on ${where} but what the name filter left out.` : `Nothing was skipped: every test ran on ${where}.`;
  }
  const count = [...byReason.values()].reduce((sum, names) => sum + names.length, 0);
  const lines = [`Not proven by this run on ${where}: ${count} skipped test${count === 1 ? '' : 's'}.`];
  if (storage === 'pglite') lines.push('Run with DATABASE_URL set to a PostgreSQL server to prove them.');
  for (const [reason, names] of byReason) lines.push(`  ${reason}:`, ...names.map((name) => `    ${name}`));
  return lines.join('\n');
}
