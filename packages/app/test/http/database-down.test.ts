import type { Knex } from 'knex';
import request from 'supertest';
import { createDatabase } from '@rcs/adapters-postgres';
import { openTestDatabase, type TestDatabase } from '@rcs/adapters-postgres/testing';
import { bootstrapSandbox } from '../../src/service';
import { serviceOn, startTcpRelay } from '../support/service-instance';
import { SANDBOX } from '../support/test-api';

/** A database that goes away under a running service: callers get a Problem JSON they can quote, /health says so. */
describe('database down', () => {
  let db: TestDatabase;
  let knex: Knex;
  let relay: Awaited<ReturnType<typeof startTcpRelay>>;
  let service: ReturnType<typeof serviceOn>;
  let token: string;
  beforeAll(async () => {
    db = await openTestDatabase();
    const url = new URL(db.url);
    relay = await startTcpRelay({ host: url.hostname, port: Number(url.port) });
    url.port = String(relay.port);
    knex = createDatabase({ url: url.toString(), schema: db.schema, poolSize: 2, embedded: db.storage === 'pglite' });
    service = serviceOn(knex);
    await bootstrapSandbox(service.app, service.config, service.logger);
    token = (await request(service.http).post('/v1/auth/login').send(SANDBOX)).body.accessToken;
    expect((await request(service.http).get('/v1/clients').set('Authorization', `Bearer ${token}`)).status).toBe(200);
    expect((await request(service.http).get('/health')).status).toBe(200);
    await relay.cut();
    // Knex reports every connection it fails to make on the console; what the caller gets is what is tested.
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await knex.destroy();
    await db.close();
  });

  it('answers a request that needs the database 500 internal-error as Problem JSON with its request id', async () => {
    const res = await request(service.http).get('/v1/clients').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 500, code: 'internal-error', requestId: res.headers['x-request-id'] });
    expect(res.body.requestId).toEqual(expect.any(String));
  });

  it('answers /health 503 with the database down', async () => {
    const res = await request(service.http).get('/health');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'degraded', database: 'down' });
  });
});
