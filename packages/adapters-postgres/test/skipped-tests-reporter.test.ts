import { appendFileSync } from 'node:fs';
import type { AggregatedResult } from '@jest/reporters';
import type { Config } from '@jest/types';
import SkippedTestsReporter from '../testing/skipped-tests-reporter';
import { SKIPPED_TESTS_FILE } from '../testing';

/** Runs the reporter over one file's results and returns what it printed, leaving this worker's variables as they were. */
function summaryOf(storage: string, tests: Array<{ title: string; status: 'passed' | 'pending' }>, recorded: Array<{ title: string; reason: string }>): string {
  const saved = { file: process.env[SKIPPED_TESTS_FILE], storage: process.env.RCS_TEST_STORAGE };
  const printed: string[] = [];
  const write = jest.spyOn(process.stderr, 'write').mockImplementation((text) => printed.push(String(text)) > 0);
  try {
    process.env.RCS_TEST_STORAGE = storage;
    const reporter = new SkippedTestsReporter({ rootDir: '/repo', testNamePattern: undefined } as unknown as Config.GlobalConfig);
    reporter.onRunStart();
    for (const { title, reason } of recorded)
      appendFileSync(process.env[SKIPPED_TESTS_FILE]!, `${JSON.stringify({ file: '/repo/a.test.ts', title, reason })}\n`);
    const results = { testResults: [{ testFilePath: '/repo/a.test.ts', testResults: tests.map((t) => ({ ...t, fullName: `suite ${t.title}` })) }] };
    reporter.onRunComplete(new Set(), results as unknown as AggregatedResult);
    return printed.join('');
  } finally {
    write.mockRestore();
    for (const [name, value] of [
      [SKIPPED_TESTS_FILE, saved.file],
      ['RCS_TEST_STORAGE', saved.storage],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

describe('the summary ending a test run', () => {
  it('lists each test skipped on PGlite under the reason it was skipped for', () => {
    const printed = summaryOf(
      'pglite',
      [
        { title: 'races', status: 'pending' },
        { title: 'counts', status: 'passed' },
      ],
      [{ title: 'races', reason: 'needs two connections' }],
    );
    expect(printed).toContain('1 skipped test');
    expect(printed).toContain('  needs two connections:\n    a.test.ts › suite races');
    expect(printed).not.toContain('counts');
  });

  it('says nothing was skipped when every test ran', () => {
    expect(summaryOf('postgres', [{ title: 'races', status: 'passed' }], [])).toContain('Nothing was skipped: every test ran on a PostgreSQL server.');
  });

  it('names a test skipped without a reason', () => {
    expect(summaryOf('postgres', [{ title: 'later', status: 'pending' }], [])).toContain('skipped by it.skip, without a reason:\n    a.test.ts › suite later');
  });
});
