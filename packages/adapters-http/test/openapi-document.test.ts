import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { STATUS_BY_CODE } from '../src/middleware/problem';
import { openApiDocument, openApiDocumentOf } from '../src/openapi/document';

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

interface Media {
  readonly schema: { readonly allOf?: ReadonlyArray<{ readonly properties?: { readonly code?: { readonly enum: string[] } } }> };
  readonly example?: unknown;
  readonly examples?: Record<string, unknown>;
}
interface Answer {
  readonly headers?: Record<string, unknown>;
  readonly content?: Record<string, Media>;
}
interface Operation {
  readonly operationId?: string;
  readonly tags?: string[];
  readonly summary?: string;
  readonly description?: string;
  readonly security?: ReadonlyArray<Record<string, string[]>>;
  readonly parameters?: ReadonlyArray<{ readonly name?: string }>;
  readonly requestBody?: { readonly content: Record<string, Media> };
  readonly responses: Record<string, Answer>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const operations = Object.entries(openApiDocument.paths as unknown as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
  METHODS.filter((method) => item[method]).map((method) => ({ name: `${method} ${path}`, operation: item[method] })),
);
const answersOf = (predicate: (status: string, answer: Answer, operation: Operation) => boolean) =>
  operations.flatMap(({ name, operation }) =>
    Object.entries(operation.responses)
      .filter(([status, answer]) => predicate(status, answer, operation))
      .map(([status, answer]) => ({ at: `${name} ${status}`, answer })),
  );
const lacking = <T extends { at: string }>(items: readonly T[], has: (item: T) => boolean) => items.filter((item) => !has(item)).map((item) => item.at);

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document under swagger-parser', async () => {
    // validate() dereferences in place: it gets a copy so the served object keeps its $refs.
    await expect(SwaggerParser.validate(structuredClone(openApiDocument) as never)).resolves.toBeDefined();
  });

  it('is valid too as a production service without the bank notifications serves it: without their paths or tags', async () => {
    const served = openApiDocumentOf({ sandbox: false, bankNotifications: false });
    await expect(SwaggerParser.validate(structuredClone(served) as never)).resolves.toBeDefined();
    const servedOnRequest = (path: string) => path.startsWith('/v1/sandbox/') || path.startsWith('/bank/');
    expect(Object.keys(served.paths)).toEqual(Object.keys(openApiDocument.paths).filter((path) => !servedOnRequest(path)));
    expect(served.tags.map((tag) => tag.name)).toEqual(
      openApiDocument.tags.map((tag) => tag.name).filter((name) => !['Sandbox', 'Bank notifications'].includes(name)),
    );
  });

  it("passes redocly's recommended lint rules without an error or a warning", async () => {
    expect(await lintProblems()).toEqual([]);
  }, 60_000);

  it('gives every operation a unique operationId, one tag the document describes, a summary and the scope it needs', () => {
    const tags = new Set((openApiDocument.tags as ReadonlyArray<{ name: string }>).map((tag) => tag.name));
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(operations.length);
    const incomplete = operations.filter(({ operation: o }) => {
      const scopes = o.security?.flatMap((requirement) => Object.values(requirement).flat()) ?? [];
      const scopeSaid =
        o.security?.length === 0 ? /Needs no token/.test(o.description ?? '') : scopes.every((scope) => o.description?.includes(`\`${scope}\``));
      return !o.operationId || o.tags?.length !== 1 || !tags.has(o.tags[0]) || !o.summary || o.security === undefined || !scopeSaid;
    });
    expect(incomplete.map(({ name }) => name)).toEqual([]);
  });

  it('shows an example of every request body and of every JSON answer', () => {
    const bodies = operations
      .filter(({ operation }) => operation.requestBody)
      .map(({ name, operation }) => ({ at: name, media: operation.requestBody!.content['application/json'] }));
    expect(lacking(bodies, ({ media }) => media.example !== undefined)).toEqual([]);
    const json = answersOf((_status, answer) => answer.content?.['application/json'] !== undefined);
    expect(lacking(json, ({ answer }) => answer.content!['application/json'].example !== undefined)).toEqual([]);
  });

  it('documents each error answer as Problem JSON naming the codes of that status, with an example of each', () => {
    const errors = answersOf((status) => /^[45]/.test(status) && status !== '503');
    expect(errors.length).toBeGreaterThan(200);
    const wrong = lacking(errors, ({ at, answer }) => {
      const media = answer.content?.['application/problem+json'];
      const codes = media?.schema.allOf?.[1]?.properties?.code?.enum ?? [];
      const status = Number(at.split(' ').pop());
      const ofStatus = new Set(
        Object.entries(STATUS_BY_CODE)
          .filter(([, s]) => s === status)
          .map(([code]) => code.replace('route-code-already-used-for-date', 'route-code-already-used')),
      );
      return codes.length > 0 && codes.every((code) => ofStatus.has(code) && media?.examples?.[code] !== undefined);
    });
    expect(wrong).toEqual([]);
  });

  it('documents X-Request-Id on every answer, Location on each creation, X-Total-Count on each list, and Idempotent-Replayed where a key is taken', () => {
    const all = answersOf(() => true);
    expect(lacking(all, ({ answer }) => answer.headers?.['X-Request-Id'] !== undefined)).toEqual([]);
    const creations = ['createClient', 'createAssociate', 'createReceivableAccount', 'createReceivable', 'createRouteSettlement'];
    const created = answersOf((status, _answer, operation) => status === '201' && creations.includes(operation.operationId!));
    expect(created).toHaveLength(creations.length);
    expect(lacking(created, ({ answer }) => answer.headers?.Location !== undefined)).toEqual([]);
    const lists = answersOf((_status, answer) => (answer.content?.['application/json']?.schema as { type?: string } | undefined)?.type === 'array');
    expect(lists.length).toBeGreaterThanOrEqual(15);
    expect(lacking(lists, ({ answer }) => answer.headers?.['X-Total-Count'] !== undefined)).toEqual([]);
    const keyed = answersOf((status, _answer, operation) => /^2/.test(status) && operation.parameters?.some((p) => p.name === 'Idempotency-Key') === true);
    expect(keyed.length).toBeGreaterThan(20);
    expect(lacking(keyed, ({ answer }) => answer.headers?.['Idempotent-Replayed'] !== undefined)).toEqual([]);
  });

  it('leaves every answer open to members added later (no additionalProperties: false)', () => {
    expect(JSON.stringify(openApiDocument)).not.toContain('"additionalProperties":false');
  });
});
