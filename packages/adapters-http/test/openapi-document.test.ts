import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { openApiDocument } from '../src/openapi/document';

const ROOT = join(__dirname, '../../..');
const REDOCLY = require.resolve('@redocly/cli/bin/cli.js');

interface LintReport {
  readonly problems: ReadonlyArray<{ ruleId: string; message: string; location: ReadonlyArray<{ pointer: string }> }>;
}

/** Redocly's lint of the document as served, under the repository's redocly.yaml: each problem as `rule at pointer: message`. */
async function lintProblems(): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(openApiDocument));
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    const args = [REDOCLY, 'lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'];
    // Lint exits 1 when it finds errors; the report on stdout says which either way.
    const stdout = await promisify(execFile)(process.execPath, args, { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 }).then(
      (done) => done.stdout,
      (failed: { stdout?: string }) => failed.stdout ?? '',
    );
    const report = JSON.parse(stdout) as LintReport;
    return report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document under swagger-parser', async () => {
    // validate() dereferences in place: it gets a copy so the served object keeps its $refs.
    await expect(SwaggerParser.validate(structuredClone(openApiDocument) as never)).resolves.toBeDefined();
  });

  it("passes redocly's recommended lint rules without an error or a warning", async () => {
    expect(await lintProblems()).toEqual([]);
  }, 60_000);
});
