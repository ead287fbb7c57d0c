import jwt from 'jsonwebtoken';
import { ALL_SCOPES } from '@rcs/domain';
import { openApiDocument } from '@rcs/adapters-http';
import { SANDBOX, startTestApi, TEST_JWT_SECRET, useTestApi, type TestApi } from '../support/test-api';

describe('authentication', () => {
  const ctx = useTestApi();

  it('exchanges client credentials for an HS256 bearer token with the documented claims', async () => {
    const res = await ctx.api.call('post', '/v1/auth/login', { body: SANDBOX });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tokenType: 'Bearer', expiresIn: 43200, scope: ALL_SCOPES.join(' ') });
    const decoded = jwt.verify(res.body.accessToken, TEST_JWT_SECRET, { algorithms: ['HS256'] }) as jwt.JwtPayload;
    expect(decoded).toMatchObject({ sub: 'sandbox-client', scope: ALL_SCOPES.join(' ') });
    expect(typeof decoded.customerId).toBe('number');
    expect(decoded.exp! - decoded.iat!).toBe(43200);
  });

  it('refuses a wrong secret and an unknown clientId alike with 401 invalid-credentials', async () => {
    for (const body of [{ ...SANDBOX, clientSecret: 'wrong' }, { clientId: 'nobody', clientSecret: 'x' }]) {
      const res = await ctx.api.call('post', '/v1/auth/login', { body });
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('invalid-credentials');
    }
  });

  it('answers a login without clientSecret with 400 validation naming the field', async () => {
    const res = await ctx.api.call('post', '/v1/auth/login', { body: { clientId: 'sandbox-client' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation');
    expect(res.body.invalidParams.map((p: { name: string }) => p.name)).toContain('clientSecret');
  });

  it('tells who the token acts for on GET /v1/me', async () => {
    const res = await ctx.api.call('get', '/v1/me', { token: ctx.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ customerId: expect.any(Number), customerName: 'Sandbox Customer 1', clientId: 'sandbox-client', scopes: ALL_SCOPES });
  });

  it.each([
    ['no Authorization header', 'unauthorized', undefined],
    ['a malformed token', 'invalid-token', 'Bearer not-a-jwt'],
    ['a token signed with another secret', 'invalid-token', `Bearer ${jwt.sign({ sub: 'x', customerId: 1, cid: 1, scope: '' }, 'another-secret-another-secret-another')}`],
    ['an expired token', 'token-expired', `Bearer ${jwt.sign({ sub: 'sandbox-client', customerId: 1, cid: 1, scope: 'clients:read', exp: Math.floor(Date.now() / 1000) - 10 }, TEST_JWT_SECRET)}`],
    ['a non-Bearer scheme', 'invalid-token', 'Basic dXNlcjpwYXNz'],
  ])('answers %s with 401 %s', async (_what, code, authorization) => {
    const res = await ctx.api.call('get', '/v1/clients', { headers: authorization ? { Authorization: authorization } : {} });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(code);
  });

  describe('a token signed with the real secret but not as the service issues it', () => {
    const now = () => Math.floor(Date.now() / 1000);
    const forge = (claims: object) => jwt.sign({ scope: ALL_SCOPES.join(' '), iat: now(), exp: now() + 43_200, ...claims }, TEST_JWT_SECRET, { algorithm: 'HS256' });
    const sandboxClaims = async () => {
      const me = await ctx.api.call('get', '/v1/me', { token: ctx.token });
      const decoded = jwt.decode(ctx.token) as { cid: number; customerId: number };
      return { sub: 'sandbox-client', customerId: me.body.customerId as number, cid: decoded.cid };
    };

    it('names a credential that does not exist as unknown, not revoked', async () => {
      const res = await ctx.api.call('get', '/v1/me', { token: forge({ sub: 'ghost', customerId: 1, cid: 999_999 }) });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('invalid-token');
      expect(res.body.detail).toBe('the credential of this token does not exist');
    });

    it("is refused with 401 when its customerId is not its credential's customer", async () => {
      const own = await sandboxClaims();
      const otherCustomerId = (await ctx.api.call('get', '/v1/me', { token: ctx.otherToken })).body.customerId;
      const res = await ctx.api.call('get', '/v1/clients', { token: forge({ ...own, customerId: otherCustomerId }) });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('invalid-token');
    });

    it("is refused with 401 when its sub is not its credential's clientId", async () => {
      const res = await ctx.api.call('get', '/v1/clients', { token: forge({ ...(await sandboxClaims()), sub: 'sandbox-client-2' }) });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('invalid-token');
    });

    it('is refused with 401 when its lifetime exceeds the 43200 s the service issues', async () => {
      const res = await ctx.api.call('get', '/v1/clients', { token: forge({ ...(await sandboxClaims()), exp: now() + 43_201 }) });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('invalid-token');
    });

    it('is refused with 401 when it was stamped in the future to stretch its life', async () => {
      const res = await ctx.api.call('get', '/v1/clients', { token: forge({ ...(await sandboxClaims()), iat: now() + 86_400, exp: now() + 86_400 + 43_200 }) });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('invalid-token');
    });

    it('is accepted when it carries exactly what the service would have issued', async () => {
      const res = await ctx.api.call('get', '/v1/clients', { token: forge(await sandboxClaims()) });
      expect(res.status).toBe(200);
    });
  });

  it('answers a token without the needed scope with 403 insufficient-scope', async () => {
    const customerId = (await ctx.api.call('get', '/v1/me', { token: ctx.token })).body.customerId;
    const limited = await ctx.api.app.credentials.create.execute({ customerId, scopes: ['clients:read'] });
    const token = await ctx.api.login(limited);
    expect((await ctx.api.call('get', '/v1/clients', { token })).status).toBe(200);
    const res = await ctx.api.call('post', '/v1/clients', { token, body: { businessName: 'X', taxId: '30712345671', documentType: 'CUIT' } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient-scope');
    expect((await ctx.api.call('get', '/v1/associates', { token })).body.code).toBe('insufficient-scope');
  });

  it('stops a revoked credential from logging in and its unexpired tokens from acting', async () => {
    const customerId = (await ctx.api.call('get', '/v1/me', { token: ctx.token })).body.customerId;
    const credential = await ctx.api.app.credentials.create.execute({ customerId });
    const token = await ctx.api.login(credential);
    await ctx.api.app.credentials.revoke.execute({ clientId: credential.clientId });
    const res = await ctx.api.call('post', '/v1/auth/login', { body: credential });
    expect(res.body.code).toBe('invalid-credentials');
    const used = await ctx.api.call('get', '/v1/me', { token });
    expect(used.status).toBe(401);
    expect(used.body.code).toBe('invalid-token');
  });

  it('stores client secrets hashed, never in clear', async () => {
    const rows = await ctx.api.db.knex('credentials').select('secret_hash');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.secret_hash).toMatch(/^scrypt\$/);
      expect(row.secret_hash).not.toContain('sandbox-secret');
    }
  });
});

describe('rate limiting', () => {
  const withApi = async (env: Record<string, string>, run: (api: TestApi) => Promise<void>) => {
    const api = await startTestApi(env);
    try {
      await run(api);
    } finally {
      await api.close();
    }
  };
  /** Behind a trusted proxy (here the loopback the tests connect from), X-Forwarded-For names the source. */
  const from = (address: string) => ({ 'X-Forwarded-For': address });
  const loginStatuses = async (api: TestApi, bodies: object[], headers: Record<string, string> = {}) => {
    const statuses: number[] = [];
    for (const body of bodies) statuses.push((await api.call('post', '/v1/auth/login', { body, headers })).status);
    return statuses;
  };

  it('answers past the per-credential limit with 429 rate-limit-exceeded and Retry-After', () =>
    withApi({ RATE_LIMIT_PER_MINUTE: '5' }, async (api) => {
      const token = await api.login(SANDBOX);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await api.call('get', '/v1/clients', { token })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      const limited = await api.call('get', '/v1/clients', { token });
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('rate-limit-exceeded');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }));

  it('counts GET /v1/me against the credential like every other operation', () =>
    withApi({ RATE_LIMIT_PER_MINUTE: '2' }, async (api) => {
      const token = await api.login(SANDBOX);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await api.call('get', '/v1/me', { token })).status);
      expect(statuses).toEqual([200, 200, 429]);
    }));

  it('limits logins per source address, so random clientIds from one address cannot keep the scrypt hashing busy', () =>
    withApi({ SOURCE_RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: 'loopback' }, async (api) => {
      const strangers = Array.from({ length: 4 }, (_, i) => ({ clientId: `random-${i}`, clientSecret: 'x' }));
      expect(await loginStatuses(api, strangers, from('203.0.113.7'))).toEqual([401, 401, 401, 429]);
      expect(await loginStatuses(api, [SANDBOX], from('198.51.100.9'))).toEqual([200]);
    }));

  it("keeps a stranger's wrong secrets from locking the owner out: logins count per clientId and source address", () =>
    withApi({ LOGIN_RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: 'loopback' }, async (api) => {
      const wrong = { ...SANDBOX, clientSecret: 'guess' };
      expect(await loginStatuses(api, [wrong, wrong, wrong, wrong], from('203.0.113.7'))).toEqual([401, 401, 401, 429]);
      expect(await loginStatuses(api, [SANDBOX], from('198.51.100.9'))).toEqual([200]);
    }));

  it('counts requests with a missing or bad token against their source address, not valid ones', () =>
    withApi({ SOURCE_RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: 'loopback' }, async (api) => {
      const token = await api.login(SANDBOX);
      const headers = from('203.0.113.7');
      const refused = [
        await api.call('get', '/v1/me', { headers }),
        await api.call('get', '/v1/clients', { headers: { ...headers, Authorization: 'Bearer not-a-jwt' } }),
        await api.call('get', '/v1/clients', { headers: { ...headers, Authorization: 'Bearer not-a-jwt' } }),
      ];
      expect(refused.map((r) => r.status)).toEqual([401, 401, 401]);
      expect((await api.call('get', '/v1/clients', { token, headers })).status).toBe(200);
      const limited = await api.call('get', '/v1/me', { headers: { ...headers, Authorization: 'Bearer not-a-jwt' } });
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('rate-limit-exceeded');
    }));

  const allowanceOf = (res: { status: number; headers: Record<string, string> }) => [res.status, res.headers['ratelimit-limit'], res.headers['ratelimit-remaining']];

  it('tells the caller its allowance on every answer: RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset', () =>
    withApi({ RATE_LIMIT_PER_MINUTE: '5' }, async (api) => {
      const token = await api.login(SANDBOX);
      const answers = [
        await api.call('get', '/v1/clients', { token }),
        await api.call('post', '/v1/clients', { token, body: {} }),
        await api.call('get', '/v1/clients/999999', { token }),
      ];
      expect(answers.map(allowanceOf)).toEqual([
        [200, '5', '4'],
        [400, '5', '3'],
        [404, '5', '2'],
      ]);
      for (const res of answers) expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
      for (const res of answers) expect(Number(res.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
    }));

  it('answers past the allowance with RateLimit-Remaining 0 and a Retry-After equal to RateLimit-Reset', () =>
    withApi({ RATE_LIMIT_PER_MINUTE: '1' }, async (api) => {
      const token = await api.login(SANDBOX);
      expect(allowanceOf(await api.call('get', '/v1/clients', { token }))).toEqual([200, '1', '0']);
      const limited = await api.call('get', '/v1/clients', { token });
      expect(allowanceOf(limited)).toEqual([429, '1', '0']);
      expect(limited.headers['retry-after']).toBe(limited.headers['ratelimit-reset']);
    }));

  it("shows a login the tighter of its source address's and its clientId's allowances", () =>
    withApi({ SOURCE_RATE_LIMIT_PER_MINUTE: '10', LOGIN_RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: 'loopback' }, async (api) => {
      const headers = from('203.0.113.7');
      const wrong = await api.call('post', '/v1/auth/login', { body: { ...SANDBOX, clientSecret: 'guess' }, headers });
      const invalid = await api.call('post', '/v1/auth/login', { body: { clientId: 'sandbox-client' }, headers });
      expect([wrong, invalid].map(allowanceOf)).toEqual([
        [401, '2', '1'],
        [400, '10', '8'],
      ]);
    }));

  it("shows a request with a missing or refused token its source address's allowance", () =>
    withApi({ SOURCE_RATE_LIMIT_PER_MINUTE: '3' }, async (api) => {
      expect(allowanceOf(await api.call('get', '/v1/clients'))).toEqual([401, '3', '2']);
      expect(allowanceOf(await api.call('get', '/v1/me', { token: 'not-a-jwt' }))).toEqual([401, '3', '1']);
    }));

  it('documents the RateLimit headers on every answer of every /v1 operation, and Retry-After on each 429', () => {
    type Operation = { responses: Record<string, { headers?: Record<string, unknown> }> };
    const paths = openApiDocument.paths as unknown as Record<string, Record<string, Operation>>;
    const answers = Object.entries(paths)
      .filter(([path]) => path.startsWith('/v1/') && path !== '/v1/openapi.json')
      .flatMap(([, item]) => Object.values(item).flatMap((operation) => Object.entries(operation.responses ?? {})));
    expect(answers.length).toBeGreaterThan(100);
    for (const [status, response] of answers) {
      expect(Object.keys(response.headers ?? {})).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
      if (status === '429') expect(response.headers).toHaveProperty('Retry-After');
    }
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY says the proxy in front may set it', () =>
    withApi({ SOURCE_RATE_LIMIT_PER_MINUTE: '2' }, async (api) => {
      const statuses: number[] = [];
      for (const address of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
        statuses.push((await api.call('get', '/v1/me', { headers: from(address) })).status);
      }
      expect(statuses).toEqual([401, 401, 429]);
    }));
});
