import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { DomainError, IDEMPOTENCY_TTL_MS, TransactionConflictError } from '@rcs/domain';
import { aClientDetails, inMemoryApplication } from '@rcs/domain/testing';
import { idempotencyKeys, keepRawBody } from '../src/middleware/idempotency';
import { errorHandler } from '../src/middleware/error-handler';

/** A route that writes a client through the use cases bound to the request's transaction, then answers as the test scripts it. */
function appWith(outcomes: Array<'ok' | 'crash' | 'busy' | 'rule' | 'deadlock'>) {
  const { app, uow, store, clock } = inMemoryApplication();
  let transactions = 0;
  // Every transaction of the fake opens here, a free run's as the key's.
  const begin = uow.begin.bind(uow);
  uow.begin = (work) => {
    transactions++;
    return begin(work);
  };
  const http = express();
  http.use(express.json());
  http.use((req, _res, next) => {
    req.auth = { sub: 'c', credentialId: 1, customerId: 1, scopes: [] };
    next();
  });
  let calls = 0;
  http.post(
    '/things',
    idempotencyKeys(app, clock).required(async (_req, bound) => {
      const outcome = outcomes[calls++];
      await bound.clients.register.execute({ customerId: 1, details: aClientDetails() });
      if (outcome === 'crash') throw new Error('database went away');
      if (outcome === 'busy') throw new DomainError('rate-limit-exceeded', 'slow down', { retryAfterSeconds: 1 });
      if (outcome === 'rule') throw new DomainError('incomplete-branch', 'rule broken');
      if (outcome === 'deadlock') throw new TransactionConflictError();
      return { status: 201, body: { calls } };
    }),
  );
  http.use(errorHandler(pino({ level: 'silent' })));
  return { http, store, clock, calls: () => calls, transactions: () => transactions };
}

const post = (http: express.Express, body: object = { a: 1 }) => request(http).post('/things').set('Idempotency-Key', 'k').send(body);

describe('idempotency middleware', () => {
  it('releases the key after a 500 and rolls its writes back, so a retry runs again', async () => {
    const { http, store, calls } = appWith(['crash', 'ok']);
    expect((await post(http)).status).toBe(500);
    expect(store.committed.clients.size).toBe(0);
    const retry = await post(http);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(calls()).toBe(2);
    expect(store.committed.clients.size).toBe(1);
  });

  it('releases the key after a 429', async () => {
    const { http, calls } = appWith(['busy', 'ok']);
    expect((await post(http)).status).toBe(429);
    expect((await post(http)).status).toBe(201);
    expect(calls()).toBe(2);
  });

  it('releases the key after a 409 concurrent-modification (a deadlock victim), so a retry runs again', async () => {
    const { http, store, calls } = appWith(['deadlock', 'ok']);
    const conflict = await post(http);
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('concurrent-modification');
    expect(store.committed.clients.size).toBe(0);
    const retry = await post(http);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(calls()).toBe(2);
  });

  it('keeps a business error and undoes everything the refused request wrote', async () => {
    const { http, store, calls } = appWith(['rule', 'ok']);
    const refused = await post(http);
    expect(refused.status).toBe(422);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    const replay = await post(http);
    expect(replay.status).toBe(422);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(calls()).toBe(1);
    expect(store.committed.clients.size).toBe(0);
    expect(store.committed.idempotency.size).toBe(1);
  });

  it('replays a completed response from memory, without a transaction, and still refuses another body', async () => {
    const { http, transactions } = appWith(['ok', 'ok']);
    const first = await post(http);
    expect(first.status).toBe(201);
    const used = transactions();
    const replay = await post(http);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.headers['content-type']).toMatch(/^application\/json/);
    expect((await post(http, { a: 2 })).status).toBe(409);
    expect(transactions()).toBe(used);
  });

  it('runs the operation again once the key has expired', async () => {
    const { http, clock, calls } = appWith(['ok', 'ok']);
    expect((await post(http)).body).toEqual({ calls: 1 });
    clock.advance(IDEMPOTENCY_TTL_MS);
    const again = await post(http);
    expect(again.body).toEqual({ calls: 2 });
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(calls()).toBe(2);
  });

  it('requires the header where the operation says so', async () => {
    const { http } = appWith(['ok']);
    const res = await request(http).post('/things').send({ a: 1 });
    expect(res.status).toBe(400);
    expect(res.body.invalidParams).toEqual([{ name: 'Idempotency-Key', reason: 'header is required for this operation' }]);
  });
});

/** A route whose body is validated as the real ones are (unknown fields stripped), with the validations counted. */
function validatingApp(parser = express.json({ verify: keepRawBody })) {
  const { app, clock } = inMemoryApplication();
  const keys = idempotencyKeys(app, clock);
  let validations = 0;
  let calls = 0;
  const http = express();
  http.use(parser);
  http.use((req, _res, next) => {
    req.auth = { sub: 'c', credentialId: 1, customerId: 1, scopes: [] };
    next();
  });
  const validate: express.RequestHandler = (req, _res, next) => {
    validations++;
    req.body = { a: req.body.a };
    next();
  };
  http.post(
    '/things',
    keys.cachedReplay,
    validate,
    keys.required((_req, _app) => Promise.resolve({ status: 201, body: { calls: ++calls } })),
  );
  http.use(errorHandler(pino({ level: 'silent' })));
  return { http, validations: () => validations, calls: () => calls };
}

describe('replays answered before body validation', () => {
  it('answers a byte-for-byte repeat from memory without validating its body again', async () => {
    const { http, validations, calls } = validatingApp();
    expect((await post(http)).status).toBe(201);
    const replay = await post(http);
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual({ calls: 1 });
    expect([validations(), calls()]).toEqual([1, 1]);
  });

  it('sends other bytes through validation: ignored fields still replay, another body is refused', async () => {
    const { http, validations, calls } = validatingApp();
    await post(http, { a: 1 });
    const extra = await post(http, { a: 1, ignored: true });
    expect(extra.headers['idempotent-replayed']).toBe('true');
    expect((await post(http, { a: 2 })).status).toBe(409);
    expect([validations(), calls()]).toEqual([3, 1]);
  });

  it('sends the same bytes under another content type through validation: its charset decides what they say', async () => {
    const { http, validations } = validatingApp();
    await post(http);
    const again = await request(http).post('/things').set('Idempotency-Key', 'k').set('Content-Type', 'application/json; charset=utf-8').send('{"a":1}');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(validations()).toBe(2);
  });

  it('takes no shortcut when the JSON parser kept no bytes to compare', async () => {
    const { http, validations } = validatingApp(express.json());
    await post(http);
    expect((await post(http)).headers['idempotent-replayed']).toBe('true');
    expect(validations()).toBe(2);
  });

  it('refuses, when the route is mounted, a keyed handler that takes no use cases: it would write outside the key’s transaction', () => {
    const { app, clock } = inMemoryApplication();
    expect(() => idempotencyKeys(app, clock).optional(() => Promise.resolve({ status: 204 }))).toThrow(/takes \(req, app\)/);
  });
});
