import jwt from 'jsonwebtoken';
import request from 'supertest';
import { ALL_SCOPES } from '@rcs/domain';
import { SANDBOX, TEST_JWT_SECRET, useTestApi } from '../support/test-api';

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
    for (const body of [
      { ...SANDBOX, clientSecret: 'wrong' },
      { clientId: 'nobody', clientSecret: 'x' },
    ]) {
      const res = await ctx.api.call('post', '/v1/auth/login', { body });
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('invalid-credentials');
    }
  });

  it('answers a login with a credential missing (absent, null or empty) 401 unauthorized, as SPEC says', async () => {
    for (const body of [
      {},
      { clientId: 'sandbox-client' },
      { clientSecret: 'sandbox-secret' },
      { clientId: '', clientSecret: '' },
      { ...SANDBOX, clientSecret: null },
    ]) {
      const res = await ctx.api.call('post', '/v1/auth/login', { body });
      expect([res.status, res.body.code]).toEqual([401, 'unauthorized']);
    }
  });

  it('answers a malformed login (credentials not strings, or not an object) 400 validation naming the field', async () => {
    const res = await ctx.api.call('post', '/v1/auth/login', { body: { clientId: 'sandbox-client', clientSecret: 42 } });
    expect([res.status, res.body.code]).toEqual([400, 'validation']);
    expect(res.body.invalidParams.map((p: { name: string }) => p.name)).toEqual(['clientSecret']);
    expect((await ctx.api.call('post', '/v1/auth/login', { body: [SANDBOX] })).status).toBe(400);
  });

  it('tells who the token acts for on GET /v1/me', async () => {
    const res = await ctx.api.call('get', '/v1/me', { token: ctx.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ customerId: expect.any(Number), customerName: 'Sandbox Customer 1', clientId: 'sandbox-client', scopes: ALL_SCOPES });
  });

  it.each([
    ['no Authorization header', 'unauthorized', undefined],
    ['a malformed token', 'invalid-token', 'Bearer not-a-jwt'],
    [
      'a token signed with another secret',
      'invalid-token',
      `Bearer ${jwt.sign({ sub: 'x', customerId: 1, cid: 1, scope: '' }, 'another-secret-another-secret-another')}`,
    ],
    [
      'an expired token',
      'token-expired',
      `Bearer ${jwt.sign({ sub: 'sandbox-client', customerId: 1, cid: 1, scope: 'clients:read', exp: Math.floor(Date.now() / 1000) - 10 }, TEST_JWT_SECRET)}`,
    ],
    ['a non-Bearer scheme, which carries no token', 'unauthorized', 'Basic dXNlcjpwYXNz'],
    ['a Bearer scheme without its token', 'invalid-token', 'Bearer'],
  ])('answers %s with 401 %s', async (_what, code, authorization) => {
    const res = await ctx.api.call('get', '/v1/clients', { headers: authorization ? { Authorization: authorization } : {} });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(code);
  });

  it.each([
    ['a body that is not JSON', 'application/json', '{bad'],
    ['a body of another media type', 'text/plain', 'hello'],
    ['a body past 1 MB', 'application/json', `{"businessName":"${'x'.repeat(1_100_000)}"}`],
  ])('answers a request without a token carrying %s with 401, its body never read', async (_what, contentType, body) => {
    const res = await request(ctx.api.http).post('/v1/clients').set('Content-Type', contentType).send(body);
    expect([res.status, res.body.code]).toEqual([401, 'unauthorized']);
  });

  describe('a token signed with the real secret but not as the service issues it', () => {
    const now = () => Math.floor(Date.now() / 1000);
    const forge = (claims: object) =>
      jwt.sign({ scope: ALL_SCOPES.join(' '), iat: now(), exp: now() + 43_200, ...claims }, TEST_JWT_SECRET, { algorithm: 'HS256' });
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

    it('is refused with 401 when it claims scopes its credential does not hold', async () => {
      const customerId = (await ctx.api.call('get', '/v1/me', { token: ctx.token })).body.customerId;
      const limited = await ctx.api.app.credentials.create.execute({ customerId, scopes: ['clients:read'] });
      const cid = (jwt.decode(await ctx.api.login(limited)) as { cid: number }).cid;
      const res = await ctx.api.call('get', '/v1/associates', {
        token: forge({ sub: limited.clientId, customerId, cid, scope: 'clients:read associates:read' }),
      });
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

  it('asks of a nested list the read scope of what it lists, not of the path it is under (CONTRACT "Scopes")', async () => {
    const customerId = (await ctx.api.call('get', '/v1/me', { token: ctx.token })).body.customerId;
    const login = async (scopes: string[]) => ctx.api.login(await ctx.api.app.credentials.create.execute({ customerId, scopes }));
    const [routes, receivables] = [await login(['route-settlements:read']), await login(['receivables:read'])];
    const path = '/v1/route-settlements/NO-SUCH-ROUTE/receivables';
    expect((await ctx.api.call('get', path, { token: routes })).body.code).toBe('insufficient-scope');
    expect((await ctx.api.call('get', path, { token: receivables })).body.code).toBe('resource-not-found');
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
