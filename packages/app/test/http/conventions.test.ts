import pino from 'pino';
import request from 'supertest';
import { useTestApi } from '../support/test-api';

describe('HTTP conventions', () => {
  const errorLogs: unknown[] = [];
  const ctx = useTestApi({}, pino({ level: 'error' }, { write: (line: string) => errorLogs.push(JSON.parse(line)) }));

  it('echoes a caller X-Request-Id and makes one when absent', async () => {
    const given = await ctx.api.call('get', '/v1/me', { token: ctx.token, headers: { 'X-Request-Id': 'trace-123' } });
    expect(given.headers['x-request-id']).toBe('trace-123');
    const made = await ctx.api.call('get', '/v1/me', { token: ctx.token });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers malformed JSON with 400 validation, not 500', async () => {
    const res = await request(ctx.api.http)
      .post('/v1/clients')
      .set('Authorization', `Bearer ${ctx.token}`)
      .set('Content-Type', 'application/json')
      .send('{"businessName": ');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('validation');
  });

  it.each([
    ['a JSON array', [1, 2]],
    ['a JSON string', '"text"'],
  ])('answers %s as body with 400 validation', async (_what, body) => {
    const res = await request(ctx.api.http)
      .post('/v1/clients')
      .set('Authorization', `Bearer ${ctx.token}`)
      .set('Content-Type', 'application/json')
      .send(body as never);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation');
  });

  it.each([
    ['text/plain', 'hello', '30-71234567-1'],
    ['application/x-www-form-urlencoded', 'businessName=Acme', '20-12345678-6'],
  ])('answers a %s body with 415 unsupported-media-type and keeps nothing under its key', async (type, body, taxId) => {
    const send = () => request(ctx.api.http).post('/v1/clients').set('Authorization', `Bearer ${ctx.token}`).set('Idempotency-Key', `media-${type}`);
    const res = await send().set('Content-Type', type).send(body);
    expect(res.status).toBe(415);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('unsupported-media-type');
    const retried = await send()
      .set('Content-Type', 'application/json')
      .send({ businessName: `Medios ${type}`, documentType: 'CUIT', taxId });
    expect([retried.status, retried.headers['idempotent-replayed']]).toEqual([201, undefined]);
  });

  it('takes a body-less POST without a Content-Type', async () => {
    const res = await request(ctx.api.http).post('/v1/sandbox/settlement-runs').set('Authorization', `Bearer ${ctx.token}`);
    expect(res.status).toBe(201);
  });

  it.each(['gzip', 'deflate', 'br'])('answers a body whose %s encoding does not decode with 400 validation, logging no error', async (encoding) => {
    const logged = errorLogs.length;
    const res = await request(ctx.api.http)
      .post('/v1/clients')
      .set('Authorization', `Bearer ${ctx.token}`)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', encoding)
      .send('not compressed at all');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ code: 'validation', invalidParams: [{ name: 'body' }] });
    expect(errorLogs.slice(logged)).toEqual([]);
  });

  it('answers a provider notification whose gzip body does not decode with 400 validation', async () => {
    const res = await request(ctx.api.http)
      .post('/bank/notifications/incoming-transfers')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send('not compressed at all');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation', invalidParams: [{ name: 'body' }] });
  });

  it('answers a body over 1 MB with 413 Problem JSON', async () => {
    const res = await request(ctx.api.http)
      .post('/v1/clients')
      .set('Authorization', `Bearer ${ctx.token}`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ businessName: 'x'.repeat(1_100_000) }));
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload-too-large');
  });

  it('answers a path id that is not a positive integer with 400 validation', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
      const res = await ctx.api.call('get', `/v1/clients/${id}`, { token: ctx.token });
      expect(res.status).toBe(400);
      expect(res.body.invalidParams[0].name).toBe('id');
    }
  });

  it('answers an unknown route with 404 Problem JSON', async () => {
    const res = await request(ctx.api.http).get('/v1/nothing-here').set('Authorization', `Bearer ${ctx.token}`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('resource-not-found');
  });

  it.each([
    ['delete', '/v1/clients', 'GET, HEAD, POST'],
    ['patch', '/v1/receivables/7', 'GET, HEAD, PUT'],
    ['delete', '/v1/receivables/batches', 'POST'],
    ['get', '/v1/receivables/batches', 'POST'],
    ['get', '/v1/Receivables/Batches/', 'POST'],
    ['put', '/v1/receivable-accounts/batches', 'POST'],
    ['post', '/v1/current-accounts/3/movements', 'GET, HEAD'],
  ] as const)('answers %s on %s, a path served with other methods, with 405 method-not-allowed and Allow: %s', async (method, path, allow) => {
    const res = await request(ctx.api.http)[method](path).set('Authorization', `Bearer ${ctx.token}`);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('method-not-allowed');
  });

  it('answers OPTIONS on a path written out whole with its own methods, not those of the path with an id in its place', async () => {
    const res = await request(ctx.api.http).options('/v1/receivables/batches').set('Authorization', `Bearer ${ctx.token}`);
    expect([res.status, res.headers.allow]).toEqual([200, 'POST']);
    const byId = await request(ctx.api.http).options('/v1/receivables/7').set('Authorization', `Bearer ${ctx.token}`);
    expect([byId.status, byId.headers.allow]).toEqual([200, 'GET, HEAD, PUT']);
  });

  it.each([
    ['get', '/v1/auth/login', 'POST'],
    ['delete', '/v1/openapi.json', 'GET, HEAD'],
    ['post', '/health', 'GET, HEAD'],
    ['get', '/bank/notifications/incoming-transfers', 'POST'],
  ] as const)('answers %s on the public path %s with 405 and Allow: %s without a token', async (method, path, allow) => {
    const res = await request(ctx.api.http)[method](path);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.body.code).toBe('method-not-allowed');
  });

  describe('creation-date filters (fromDate, toDate)', () => {
    const list = (query: string) => ctx.api.call('get', `/v1/clients?${query}`, { token: ctx.token });
    const mainMovements = async () =>
      `/v1/current-accounts/${(await ctx.api.call('get', '/v1/current-accounts?accountType=MAIN', { token: ctx.token })).body[0].id}/movements`;

    it.each(['0001-01-01', '0050-06-15', '0099-12-31', '0050-06-15T10:00:00Z', '0001-01-01T00:00:00+05:00', '9999-12-31T23:59:59.999-03:00'])(
      'takes %s, a date or timestamp of the years 0001 to 9999, as every list and movement list does',
      async (date) => {
        const res = await list(`fromDate=${encodeURIComponent(date)}&toDate=${encodeURIComponent(date)}`);
        expect(res.status).toBe(200);
        const movements = await ctx.api.call('get', `${await mainMovements()}?fromDate=${encodeURIComponent(date)}`, { token: ctx.token });
        expect(movements.status).toBe(200);
      },
    );

    it('finds what was created on or after a date of the first century', async () => {
      const res = await ctx.api.call('get', '/v1/current-accounts?fromDate=0050-06-15', { token: ctx.token });
      expect(res.body.map((a: { accountType: string }) => a.accountType).sort()).toEqual(['MAIN', 'SUB']);
    });

    it.each(['0000-12-31', '0000-12-31T10:00:00Z', '2026-11-26T10:00', '2026-11-26T10:00:00', '2026-02-30', '2026-03-01T24:00:00Z', 'yesterday'])(
      'refuses %s with 400 validation naming the filter and the years it takes',
      async (date) => {
        const res = await list(`fromDate=${encodeURIComponent(date)}`);
        expect(res.status).toBe(400);
        expect(res.body.invalidParams).toEqual([{ name: 'fromDate', reason: expect.stringMatching(/years 0001 to 9999/) }]);
      },
    );
  });

  describe('query parameters', () => {
    it.each([
      ['/v1/webhooks?status=PAUSED', 'status'],
      ['/v1/receivables?staus=PAID&count=5', 'staus'],
      ['/v1/events?types=receivable.paid', 'types'],
    ])('answers %s, a parameter the list does not take, with 400 validation naming it, not the whole list', async (url, name) => {
      const res = await ctx.api.call('get', url, { token: ctx.token });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation', invalidParams: [{ name, reason: 'is not a parameter of this operation' }] });
    });

    it.each([
      ['/v1/clients/1/receivable-accounts?clientId=2', 'clientId'],
      ['/v1/associates/1/receivable-accounts?associateId=2', 'associateId'],
      ['/v1/receivable-accounts/1/receivables?receivableAccountId=2', 'receivableAccountId'],
      ['/v1/associates/1/route-settlements?associateId=2', 'associateId'],
    ])('answers %s, the filter its path fixes, with 400 validation naming it, not a list that ignores it', async (url, name) => {
      const res = await ctx.api.call('get', url, { token: ctx.token });
      expect(res.status).toBe(400);
      expect(res.body.invalidParams).toEqual([{ name, reason: 'is not a parameter of this operation: its path names it' }]);
    });

    it('takes every query parameter the OpenAPI document lists, on every GET', async () => {
      const document = (await ctx.api.call('get', '/v1/openapi.json')).body;
      const refused: string[] = [];
      let lists = 0;
      for (const [path, item] of Object.entries<Record<string, { parameters?: Array<{ name: string; in: string }> }>>(document.paths)) {
        const query = (item.get?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        if (query.length === 0) continue;
        lists++;
        const url = `${path.replace(/\{[^}]+\}/g, '1')}?${query.map((name) => `${name}=1`).join('&')}`;
        const res = await ctx.api.call('get', url, { token: ctx.token });
        for (const param of res.body?.invalidParams ?? []) {
          if (param.reason === 'is not a parameter of this operation') refused.push(`${path} ${param.name}`);
        }
      }
      expect(refused).toEqual([]);
      expect(lists).toBeGreaterThanOrEqual(21);
    });
  });

  it('serves the OpenAPI 3.1 document without a token', async () => {
    const res = await ctx.api.call('get', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/v1/clients', '/v1/associates/{id}/activations']));
  });

  it('answers /health with 200 and the database up when it answers', async () => {
    const res = await ctx.api.call('get', '/health');
    expect([res.status, res.body]).toEqual([200, { status: 'ok', database: 'up' }]);
  });
});
