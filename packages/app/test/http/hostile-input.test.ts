import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import request from 'supertest';
import { validTaxId } from '@rcs/domain/testing';
import { documentedOperations } from '../support/openapi-operations';
import { activeAccount, key } from '../support/fixtures';
import { useTestApi } from '../support/test-api';

const nested = (levels: number): unknown => (levels === 0 ? 1 : [nested(levels - 1)]);

/** Values that have broken parsers and databases before: wrong types, edges of number ranges, NUL, odd text. */
const HOSTILE: readonly unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e21,
  1e308,
  9007199254740993,
  5e-324,
  '',
  ' ',
  'abc',
  '1e3',
  '1e400',
  '-0',
  '0x10',
  '１２３',
  '99999999999999999999999',
  '2026-02-30',
  '0000-00-00',
  'a\u0000b',
  '\ud800',
  'x'.repeat(5000),
  [],
  [null],
  {},
  { constructor: [] },
  JSON.parse('{"__proto__": {"polluted": true}}'),
  nested(40),
];
/** Path segments as sent, already percent-encoded: %FF and a lone %E2 do not decode to UTF-8, %00 is NUL. */
const HOSTILE_SEGMENTS = ['0', '-1', 'abc', '1.5', '1e3', '9007199254740993', '99999999999999999999', '%FF', '%E2', '%00', 'null', '%20%201'];

const hostile = fc.oneof(fc.constantFrom(...HOSTILE), fc.string(), fc.integer(), fc.double(), fc.jsonValue({ maxDepth: 2 }));

/** The value as documented most of the time, else something hostile; object members may go missing. */
function mutated(value: unknown): fc.Arbitrary<unknown> {
  const plausible = Array.isArray(value)
    ? fc.array(mutated(value[0]), { maxLength: 3 })
    : value !== null && typeof value === 'object'
      ? fc.record(Object.fromEntries(Object.entries(value).map(([name, member]) => [name, mutated(member)])), { requiredKeys: [] })
      : fc.constant(value);
  return fc.oneof({ arbitrary: plausible, weight: 4 }, { arbitrary: hostile, weight: 1 });
}

const asText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined'));

/** One request to a documented operation with hostile path segments, query parameters and body members. */
const hostileRequest = fc.nat(documentedOperations.length - 1).chain((index) => {
  const operation = documentedOperations[index];
  return fc.record({
    operation: fc.constant(operation),
    segments: fc.array(fc.oneof(fc.constantFrom('1', '2', '3'), fc.constantFrom(...HOSTILE_SEGMENTS)), { minLength: 3, maxLength: 3 }),
    // Pairs, not a dictionary: a parameter may come twice (?cursor=a&cursor=b), which Express reads as an array.
    query:
      operation.queryNames.length > 0 ? fc.array(fc.tuple(fc.constantFrom(...operation.queryNames), hostile.map(asText)), { maxLength: 4 }) : fc.constant([]),
    body: mutated(operation.sampleBody),
  });
});

describe('Hostile input', () => {
  const ctx = useTestApi();
  const post = (url: string, body: unknown) => ctx.api.call('post', url, { token: ctx.token, body, headers: key('hostile') });
  const accountId = async () => (await activeAccount(ctx.api, ctx.token)).account.id;
  const invoice = (receivableAccountId: number, extra: object = {}) => ({
    receivableAccountId,
    amount: '10',
    currencyCode: 'ARS',
    receivableType: 'INVOICE',
    ...extra,
  });

  it('never answers 500 to any documented operation, and refuses with Problem JSON the document describes', async () => {
    await fc.assert(
      fc.asyncProperty(hostileRequest, async ({ operation, segments, query, body }) => {
        let segment = 0;
        const path = operation.template.replace(/\{[^}]+\}/g, () => segments[segment++]);
        const search = new URLSearchParams(query).toString();
        const sendsBody = operation.method !== 'get' && operation.method !== 'delete';
        const res = await ctx.api.call(operation.method, search ? `${path}?${search}` : path, {
          token: ctx.token,
          headers: { 'Idempotency-Key': randomUUID(), 'Content-Type': 'application/json' },
          // As JSON text: any JSON value, not only the objects and strings supertest would encode itself.
          ...(sendsBody ? { body: JSON.stringify(body) ?? 'null' } : {}),
        });
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) {
          expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
          expect(typeof res.body.code).toBe('string');
        }
      }),
      // A fixed seed keeps CI deterministic; FUZZ_SEED explores other cases (fast-check prints the failing one).
      { numRuns: 300, seed: Number(process.env.FUZZ_SEED ?? 20261123) },
    );
  });

  it.each([
    ['beyond the integers a JSON number carries exactly', 9007199254740993],
    ['in exponent notation beyond int64', 1e21],
  ])('refuses an id %s, in a body and in a query, with 400 naming it', async (_what, id) => {
    const created = await post('/v1/receivables', invoice(await accountId(), { clientId: id }));
    expect(created.status).toBe(400);
    expect(created.body.invalidParams).toEqual([{ name: 'clientId', reason: 'clientId must be a positive integer' }]);
    const listed = await ctx.api.call('get', `/v1/route-settlements?associateId=${id}`, { token: ctx.token });
    expect(listed.status).toBe(400);
    expect(listed.body.invalidParams[0].name).toBe('associateId');
  });

  it('refuses every query parameter of every list given twice with 400 naming it, a valid cursor too', async () => {
    const cursor = Buffer.from(JSON.stringify(['2026-02-01T00:00:00.000000Z', 1])).toString('base64url');
    const otherwise: string[] = [];
    for (const operation of documentedOperations.filter((o) => o.method === 'get' && o.queryNames.includes('cursor'))) {
      const path = operation.template.replace(/\{[^}]+\}/g, '1');
      for (const name of operation.queryNames) {
        const value = name === 'cursor' ? cursor : '1';
        const res = await ctx.api.call('get', `${path}?${name}=${value}&${name}=${value}`, { token: ctx.token });
        const named = res.body.invalidParams?.map((p: { name: string }) => p.name);
        if (res.status !== 400 || named?.join() !== name) otherwise.push(`${path} ${name}: ${res.status} ${named}`);
      }
    }
    expect(otherwise).toEqual([]);
  });

  it('reads an id in a query as plain decimal digits only', async () => {
    for (const text of ['1e3', '0x10', ' 7', '', '0']) {
      const res = await ctx.api.call('get', `/v1/receivables?clientId=${encodeURIComponent(text)}`, { token: ctx.token });
      expect(res.status).toBe(400);
      expect(res.body.invalidParams[0].name).toBe('clientId');
    }
  });

  it('refuses a page whose offset the database could not read', async () => {
    const res = await ctx.api.call('get', '/v1/receivables?page=1e21', { token: ctx.token });
    expect(res.status).toBe(400);
    expect(res.body.invalidParams[0].name).toBe('page');
  });

  it('refuses text PostgreSQL cannot store as sent (NUL, a lone surrogate), naming the member, and stores nothing', async () => {
    const account = await accountId();
    const before = await ctx.api.call('get', `/v1/receivables?receivableAccountId=${account}`, { token: ctx.token });
    const res = await post('/v1/receivables', invoice(account, { invoiceData: { authCode: 'A\u0000B' } }));
    expect(res.status).toBe(400);
    expect(res.body.invalidParams).toEqual([{ name: 'invoiceData.authCode', reason: 'must not contain the NUL character (\\u0000)' }]);
    const after = await ctx.api.call('get', `/v1/receivables?receivableAccountId=${account}`, { token: ctx.token });
    expect(after.headers['x-total-count']).toBe(before.headers['x-total-count']);
    const lone = await post('/v1/clients', { businessName: 'Lone \ud800 SA', taxId: '30500000017', documentType: 'CUIT' });
    expect(lone.body.invalidParams).toEqual([{ name: 'businessName', reason: 'must be well-formed Unicode (it holds a lone surrogate)' }]);
    const byCode = await ctx.api.call('get', '/v1/route-settlements/R%001', { token: ctx.token });
    expect(byCode.status).toBe(400);
    expect(byCode.body.invalidParams[0].name).toBe('routeCode');
  });

  describe('a date PostgreSQL cannot store (year 0000, or beyond 9999)', () => {
    const dates = { account: 0, receivable: 0, associate: 0 };
    beforeAll(async () => {
      const { account, associate } = await activeAccount(ctx.api, ctx.token);
      dates.account = account.id;
      dates.associate = associate.id;
      dates.receivable = (await post('/v1/receivables', invoice(account.id))).body.id;
    });
    const member = (name: string, value: string) => ({ [name]: value });

    it.each(['0000-01-01', '10000-01-01'])('is refused in a receivable body with 400 validation naming the member (%s)', async (date) => {
      for (const name of ['issueDate', 'dueDate', 'receivableDate']) {
        const res = await post('/v1/receivables', invoice(dates.account, member(name, date)));
        expect(res.status).toBe(400);
        expect(res.body.invalidParams).toEqual([{ name, reason: expect.stringMatching(/years 0001 to 9999/) }]);
      }
    });

    it('is refused in a receivable edit with 400 validation naming the member', async () => {
      for (const name of ['issueDate', 'dueDate']) {
        const res = await ctx.api.call('put', `/v1/receivables/${dates.receivable}`, { token: ctx.token, body: member(name, '0000-06-15') });
        expect(res.status).toBe(400);
        expect(res.body.invalidParams[0].name).toBe(name);
      }
    });

    it("is refused in a batch item as that item's 400, the other items created", async () => {
      const items = ['issueDate', 'dueDate', 'receivableDate'].map((name) => invoice(dates.account, member(name, '0000-12-31')));
      const res = await post('/v1/receivables/batches', { items: [invoice(dates.account), ...items] });
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([201, 400, 400, 400]);
      expect(res.body.results[3].error.invalidParams[0].name).toBe('receivableDate');
    });

    it.each([
      ['/v1/receivables', 'fromDueDate'],
      ['/v1/receivables', 'toDueDate'],
      ['/v1/receivables', 'fromIssueDate'],
      ['/v1/receivables', 'toIssueDate'],
      ['/v1/route-settlements', 'fromDate'],
      ['/v1/route-settlements', 'toDate'],
    ])('is refused as the %s filter %s with 400 validation naming it', async (path, name) => {
      const res = await ctx.api.call('get', `${path}?${name}=0000-01-01`, { token: ctx.token });
      expect(res.status).toBe(400);
      expect(res.body.invalidParams[0].name).toBe(name);
    });

    it('is refused as a route settlement date with 400 validation, and nothing is stored', async () => {
      const res = await ctx.api.call('post', '/v1/route-settlements', {
        token: ctx.token,
        body: { routeCode: 'R-0000', date: '0000-01-01', associateId: dates.associate },
      });
      expect(res.status).toBe(400);
      expect(res.body.invalidParams[0].name).toBe('date');
      expect(await ctx.api.db.knex('route_settlements').where({ route_code: 'R-0000' })).toEqual([]);
    });
  });

  it('answers a path that does not percent-decode with 400 validation', async () => {
    const res = await ctx.api.call('get', '/v1/route-settlements/%FF', { token: ctx.token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation', invalidParams: [{ name: 'path' }] });
  });

  it('answers a query that does not percent-decode with 400 validation, rather than filtering by the text as written', async () => {
    for (const url of ['/v1/transfers?externalId=%FF', '/v1/contacts?alias=a%E0%80b', '/v1/clients?externalId=%']) {
      const res = await ctx.api.call('get', url, { token: ctx.token });
      expect([url, res.status, res.body.invalidParams]).toEqual([url, 400, [{ name: 'query', reason: expect.stringMatching(/percent-encoded UTF-8/) }]]);
    }
    expect((await ctx.api.call('get', '/v1/contacts?alias=a%2Bb+c', { token: ctx.token })).status).toBe(200);
  });

  it.each(['/v1/contacts?alias=', '/v1/transfers?externalId=', '/v1/receivables?legalNumber=', '/v1/associates?documentNumber='])(
    'refuses the empty text filter %s with 400 validation instead of an empty page',
    async (url) => {
      const res = await ctx.api.call('get', url, { token: ctx.token });
      expect([res.status, res.body.invalidParams?.[0]?.reason]).toEqual([400, expect.stringMatching(/must not be empty/)]);
    },
  );

  it('ignores members named after object machinery, nested too, like any unknown member', async () => {
    const item = { ...invoice(await accountId()), constructor: [], prototype: { x: 1 }, hasOwnProperty: 'x', toString: { y: 1 } };
    const res = await post('/v1/receivables/batches', { items: [item] });
    expect(res.status).toBe(200);
    expect(res.body.results[0].status).toBe(201);
  });

  it('refuses a body nested deeper than any member needs, without exhausting the stack', async () => {
    const depth = 100_000;
    const res = await request(ctx.api.http)
      .post('/v1/clients')
      .set('Authorization', `Bearer ${ctx.token}`)
      .set('Content-Type', 'application/json')
      .send(`{"businessName":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/nests more than 32 levels deep/);
  });

  it('refuses a settlement run whose ignored body member nests too deep, as any body is refused', async () => {
    const res = await post('/v1/sandbox/settlement-runs', { ignored: nested(40) });
    expect([res.status, res.body.detail]).toEqual([400, expect.stringMatching(/nests more than 32 levels deep/)]);
  });

  it('refuses a body whose bytes are not UTF-8, or of another charset, and stores nothing', async () => {
    const clients = async () => (await ctx.api.call('get', '/v1/clients', { token: ctx.token })).headers['x-total-count'];
    const before = await clients();
    const text = JSON.stringify({ businessName: 'Ñandú SA', taxId: validTaxId('30', 61_223_344), documentType: 'CUIT' });
    // The bytes as they are: supertest would send a Buffer of this test's realm as JSON of its own.
    const server = createServer(ctx.api.http).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const send = async (bytes: Buffer, contentType: string) => {
      const res = await fetch(`http://127.0.0.1:${port}/v1/clients`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ctx.token}`, 'content-type': contentType },
        body: new Uint8Array(bytes),
      });
      return { status: res.status, body: (await res.json()) as { invalidParams?: unknown } };
    };
    try {
      // Latin-1 bytes sent as UTF-8: decoded leniently, the name was stored as "\ufffdand\ufffd SA".
      const latin1 = await send(Buffer.from(text, 'latin1'), 'application/json');
      expect(latin1.status).toBe(400);
      expect(latin1.body.invalidParams).toEqual([{ name: 'body', reason: expect.stringMatching(/must be UTF-8/) }]);
      expect((await send(Buffer.from(text, 'latin1'), 'application/json; charset=latin1')).status).toBe(400);
      expect((await send(Buffer.from(text, 'utf16le'), 'application/json; charset=utf-16le')).status).toBe(400);
      // ASCII in UTF-16 is valid UTF-8 too (each character then a NUL): read as UTF-8, its number was never checked.
      const inexact = await send(Buffer.from('{"businessName": 1.0000000000000001}', 'utf16le'), 'application/json; charset=utf-16le');
      expect(inexact.body.invalidParams).toEqual([{ name: 'body', reason: 'must be UTF-8, not utf-16le' }]);
      expect((await send(Buffer.from(text, 'utf8'), 'application/json; charset=UTF-8')).status).toBe(201);
    } finally {
      server.close();
    }
    expect(Number(await clients())).toBe(Number(before) + 1);
  });
});
