import { openApiDocument } from '@rcs/adapters-http';
import { SANDBOX, startTestApi, type TestApi } from '../support/test-api';

/**
 * The limiter's window is a sliding minute estimated from the current and previous calendar minutes: requests that
 * straddle a minute's end count as slightly fewer, so a test counting to its limit starts at least 15 s before one.
 */
async function clearOfMinuteEnd(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 100));
}

describe('rate limiting', () => {
  // A test may first wait up to 15 s for clearOfMinuteEnd.
  jest.setTimeout(60_000);
  const withApi = async (env: Record<string, string>, run: (api: TestApi) => Promise<void>) => {
    const api = await startTestApi(env);
    try {
      await clearOfMinuteEnd();
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

  const allowanceOf = (res: { status: number; headers: Record<string, string> }) => [
    res.status,
    res.headers['ratelimit-limit'],
    res.headers['ratelimit-remaining'],
  ];

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
      const invalid = await api.call('post', '/v1/auth/login', { body: { clientId: 'sandbox-client', clientSecret: 42 }, headers });
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
