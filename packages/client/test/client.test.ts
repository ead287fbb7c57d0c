import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { validTaxId } from '@rcs/domain/testing';
import { SANDBOX, startTestApi, type TestApi } from '../../app/test/support/test-api';
import { allItems, ApiError, createApiClient, type ClientOptions } from '../src';

let api: TestApi;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  api = await startTestApi();
  server = api.http.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await api.close();
});

/** The real service over HTTP, with every request the client sends recorded and, where a test says so, answered by a fake proxy. */
function clientWith(options: Partial<ClientOptions> & { proxy?: (request: Request) => Promise<Response | undefined> | Response | undefined } = {}) {
  const sent: Request[] = [];
  const delays: number[] = [];
  const client = createApiClient({
    baseUrl,
    credentials: SANDBOX,
    retry: { sleep: (ms) => Promise.resolve(void delays.push(ms)) },
    ...options,
    fetch: async (request) => {
      sent.push(request);
      return (await options.proxy?.(request)) ?? fetch(request);
    },
  });
  const logins = () => sent.filter((r) => r.url.endsWith('/v1/auth/login')).length;
  return { client, sent, delays, logins };
}

const aClient = (n: number) => ({ businessName: `Client ${n}`, taxId: validTaxId('30', 60000000 + n), documentType: 'CUIT' as const });
const answeredOnce = (status: number, headers: Record<string, string> = {}) => {
  let answered = false;
  return (request: Request) => {
    if (answered || request.url.endsWith('/v1/auth/login')) return undefined;
    answered = true;
    return new Response('upstream trouble', { status, headers });
  };
};

describe('typed client', () => {
  it('logs in with the credentials and calls with the token', async () => {
    const { client, logins } = clientWith();
    const { data } = await client.GET('/v1/me');
    expect(data?.clientId).toBe(SANDBOX.clientId);
    expect(logins()).toBe(1);
  });

  it('logs in again once the token is within a minute of expiring, not before', async () => {
    let clock = Date.now();
    const { client, logins } = clientWith({ now: () => clock });
    await client.GET('/v1/me');
    const renewAt = clock + 43_200_000 - 60_000;
    clock = renewAt - 1;
    await client.GET('/v1/me');
    expect(logins()).toBe(1);
    clock = renewAt;
    const { data } = await client.GET('/v1/me');
    expect(logins()).toBe(2);
    expect(data?.clientId).toBe(SANDBOX.clientId);
  });

  it('sends every write with an Idempotency-Key of its own', async () => {
    const { client, sent } = clientWith();
    await client.POST('/v1/clients', { body: aClient(1) });
    await client.POST('/v1/clients', { body: aClient(1) });
    const keys = sent.filter((r) => r.method === 'POST' && r.url.endsWith('/v1/clients')).map((r) => r.headers.get('idempotency-key'));
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
    expect(keys.every((key) => key && key.length > 0)).toBe(true);
  });

  it('keeps the Idempotency-Key a call gives, so the service replays the first answer', async () => {
    const { client } = clientWith();
    const headers = { 'Idempotency-Key': 'typed-client-given-key' };
    await client.POST('/v1/clients', { body: aClient(2), headers });
    const { response } = await client.POST('/v1/clients', { body: aClient(2), headers });
    expect(response.headers.get('idempotent-replayed')).toBe('true');
  });

  it('sends a write again under the same key when a 502 lost its answer, so the service creates it once', async () => {
    let lost = false;
    // The write reaches the service, which creates the client; the proxy in between answers 502 instead.
    const loseFirstAnswer = async (request: Request) => {
      if (lost || request.method !== 'POST' || !request.url.endsWith('/v1/clients')) return undefined;
      lost = true;
      await fetch(request.clone());
      return new Response('bad gateway', { status: 502 });
    };
    const { client, sent } = clientWith({ proxy: loseFirstAnswer });
    const { data, response } = await client.POST('/v1/clients', { body: aClient(3) });
    const writes = sent.filter((r) => r.method === 'POST' && r.url.endsWith('/v1/clients'));
    expect(writes).toHaveLength(2);
    expect(writes[1].headers.get('idempotency-key')).toBe(writes[0].headers.get('idempotency-key'));
    expect(response.status).toBe(201);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    const stored = await api.db.knex('clients').where({ tax_id: aClient(3).taxId });
    expect(stored.map((row: { id: number }) => Number(row.id))).toEqual([data?.id]);
  });

  it('retries a read after a 504 with a doubling backoff', async () => {
    let failures = 2;
    const { client, delays } = clientWith({ proxy: (request) => (request.method === 'GET' && failures-- > 0 ? new Response('', { status: 504 }) : undefined) });
    const { data } = await client.GET('/v1/me');
    expect(data?.clientId).toBe(SANDBOX.clientId);
    expect(delays).toEqual([250, 500]);
  });

  it('waits as long as Retry-After says before sending a rate-limited call again', async () => {
    const { client, delays } = clientWith({ proxy: answeredOnce(429, { 'retry-after': '7' }) });
    const { data } = await client.GET('/v1/me');
    expect(data?.clientId).toBe(SANDBOX.clientId);
    expect(delays).toEqual([7000]);
  });

  it('gives up after three retries with an ApiError of the last status', async () => {
    const { client, sent } = clientWith({ proxy: (request) => (request.method === 'GET' ? new Response('down', { status: 502 }) : undefined) });
    const error = await client.GET('/v1/me').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, code: 'http-502' });
    expect(sent.filter((r) => r.method === 'GET')).toHaveLength(4);
  });

  it("throws an ApiError carrying the service's Problem JSON", async () => {
    const { client } = clientWith();
    const error = await client.GET('/v1/clients/{id}', { params: { path: { id: 999_999_999 } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'resource-not-found', problem: { status: 404, code: 'resource-not-found' } });
  });

  it('throws the refused login as an ApiError', async () => {
    const { client } = clientWith({ credentials: { clientId: SANDBOX.clientId, clientSecret: 'wrong' } });
    await expect(client.GET('/v1/me')).rejects.toMatchObject({ status: 401, code: 'invalid-credentials' });
  });

  it("iterates over every item of a list, following each page's Link to the next, as X-Total-Count counts them", async () => {
    const { client, sent } = clientWith();
    for (let n = 10; n < 15; n++) await client.POST('/v1/clients', { body: aClient(n) });
    const { response } = await client.GET('/v1/clients', { params: { query: { count: 1 } } });
    const total = Number(response.headers.get('x-total-count'));
    const pagesBefore = sent.length;
    const ids: number[] = [];
    for await (const item of allItems(client, '/v1/clients', {}, 2)) ids.push(item.id);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    expect(sent.length - pagesBefore).toBe(Math.ceil(total / 2));
    expect(sent.slice(pagesBefore + 1).every((request) => /[?&]cursor=/.test(request.url))).toBe(true);
  });
});
