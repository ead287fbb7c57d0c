import request from 'supertest';
import { validTaxId } from '@rcs/domain/testing';
import { itRacing, useTestApi } from '../support/test-api';

const aClient = (n: number, overrides: Record<string, unknown> = {}) => ({
  businessName: `Idempotent ${n}`,
  taxId: validTaxId('30', 80000000 + n * 10),
  documentType: 'CUIT',
  ...overrides,
});

describe('idempotency', () => {
  const ctx = useTestApi();
  const post = (key: string, body: unknown, token = ctx.token) => ctx.api.call('post', '/v1/clients', { token, body, headers: { 'Idempotency-Key': key } });
  const countClients = async (taxId: string) => Number((await ctx.api.db.knex('clients').where({ tax_id: taxId }).count({ n: '*' }))[0].n);

  it('replays the first response for the same key and body without running it again', async () => {
    const first = await post('key-replay', aClient(1));
    const replay = await post('key-replay', { ...aClient(1) });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.location).toBe(first.headers.location);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await countClients(aClient(1).taxId)).toBe(1);
  });

  it('replays from storage, on another instance, the very text of the first answer', async () => {
    const first = await post('key-stored-text', aClient(9));
    const replay = await request(ctx.api.otherInstance())
      .post('/v1/clients')
      .set('Authorization', `Bearer ${ctx.token}`)
      .set('Idempotency-Key', 'key-stored-text')
      .send(aClient(9));
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(first.text);
  });

  it("serialises a creation's answer once: the text sent is the text stored under the key", async () => {
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      const first = await post('key-one-serialisation', aClient(11));
      const answerSerialisations = stringify.mock.calls.filter(([value]) => (value as { id?: unknown } | null)?.id === first.body.id);
      expect(answerSerialisations).toHaveLength(1);
      const [stored] = await ctx.api.db
        .knex('idempotency_keys')
        .where({ key: 'key-one-serialisation' })
        .select(ctx.api.db.knex.raw('response_body::text AS text'));
      expect(stored.text).toBe(first.text);
    } finally {
      stringify.mockRestore();
    }
  });

  it('fingerprints the body canonically: key order and unknown fields do not matter', async () => {
    const body = aClient(2, { email: 'x@y.example' });
    await post('key-canonical', body);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const res = await post('key-canonical', { ...reordered, somethingUnknown: 1 });
    expect(res.headers['idempotent-replayed']).toBe('true');
  });

  it('answers the same key with a different body with 409 idempotency-key-reuse', async () => {
    await post('key-reuse', aClient(3));
    const res = await post('key-reuse', aClient(3, { businessName: 'Changed' }));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('idempotency-key-reuse');
  });

  it('answers the same key and body on another endpoint with 409 idempotency-key-reuse', async () => {
    const created = await post('key-endpoint', aClient(4));
    const res = await ctx.api.call('put', `/v1/clients/${created.body.id}`, {
      token: ctx.token,
      body: aClient(4),
      headers: { 'Idempotency-Key': 'key-endpoint' },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('idempotency-key-reuse');
  });

  it('scopes keys to the credential: another customer may use the same key', async () => {
    await post('key-scoped', aClient(5));
    const theirs = await post('key-scoped', aClient(5), ctx.otherToken);
    expect(theirs.status).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
  });

  it('keeps and replays a business error under its key', async () => {
    const body = aClient(6, { branchExternalCode: 'B1' });
    const first = await post('key-error', body);
    const replay = await post('key-error', body);
    expect(first.status).toBe(422);
    expect(replay.status).toBe(422);
    expect(replay.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('keeps nothing for a request the operation refused as invalid (400), so its corrected retry runs under the same key', async () => {
    const created = await post('key-invalid-create', aClient(10));
    const put = (body: object) =>
      ctx.api.call('put', `/v1/clients/${created.body.id}`, { token: ctx.token, body, headers: { 'Idempotency-Key': 'key-invalid' } });
    const refused = await put(aClient(10, { businessName: 'Renamed', taxId: validTaxId('30', 80000990) }));
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('validation');
    const corrected = await put(aClient(10, { businessName: 'Renamed' }));
    expect(corrected.status).toBe(200);
    expect(corrected.headers['idempotent-replayed']).toBeUndefined();
    expect(corrected.body.businessName).toBe('Renamed');
  });

  it('refuses keys over 255 characters and empty keys with 400 validation naming the header', async () => {
    for (const key of ['k'.repeat(256), '']) {
      const res = await post(key, aClient(7));
      expect(res.status).toBe(400);
      expect(res.body.invalidParams[0].name).toBe('Idempotency-Key');
    }
    expect((await post('k'.repeat(255), aClient(7))).status).toBe(201);
  });

  it('refuses a key header sent twice, which would be read as one key matching neither, and creates nothing', async () => {
    const res = await ctx.api.call('post', '/v1/clients', { token: ctx.token, body: aClient(23), headers: { 'Idempotency-Key': ['twice-a', 'twice-b'] } });
    expect([res.status, res.body.invalidParams]).toEqual([400, [{ name: 'Idempotency-Key', reason: expect.stringMatching(/more than once/) }]]);
    expect(await countClients(aClient(23).taxId)).toBe(0);
    expect((await post('twice-a', aClient(23))).status).toBe(201);
  });

  it('does not serve a key header sent twice from the answers this process keeps, where the joined keys name one', async () => {
    // Node joins the two headers as "dup-a, dup-b": the very key of this first request.
    expect((await post('dup-a, dup-b', aClient(24))).status).toBe(201);
    const res = await ctx.api.call('post', '/v1/clients', { token: ctx.token, body: aClient(24), headers: { 'Idempotency-Key': ['dup-a', 'dup-b'] } });
    expect([res.status, res.headers['idempotent-replayed']]).toEqual([400, undefined]);
  });

  it('replays a repeat sent to the same route written in another case or with a trailing slash, which Express routes alike', async () => {
    const first = await post('key-route-case', aClient(25));
    // Sent past the OpenAPI check of ctx.api.call, which knows the paths as documented only.
    const send = (method: 'post' | 'put', path: string, key: string, body: object) =>
      request(ctx.api.http)[method](path).set('Authorization', `Bearer ${ctx.token}`).set('Idempotency-Key', key).send(body);
    for (const path of ['/V1/Clients', '/v1/clients/']) {
      const replay = await send('post', path, 'key-route-case', aClient(25));
      expect([replay.status, replay.headers['idempotent-replayed'], replay.body.id]).toEqual([201, 'true', first.body.id]);
    }
    expect(await countClients(aClient(25).taxId)).toBe(1);
    const edit = (path: string) => send('put', path, 'key-route-case-put', aClient(25, { businessName: 'Recased' }));
    expect((await edit(`/v1/clients/${first.body.id}`)).status).toBe(200);
    const again = await edit(`/v1/CLIENTS/${first.body.id}/`);
    expect([again.status, again.headers['idempotent-replayed']]).toEqual([200, 'true']);
  });

  it('counts a key in characters, not in the bytes of their UTF-8', async () => {
    // Sent as the UTF-8 of "ñ", two bytes each, as clients send it.
    const [first, again] = [await post('ñ'.repeat(255), aClient(21)), await post('ñ'.repeat(255), aClient(21))];
    expect([first.status, again.status, again.headers['idempotent-replayed']]).toEqual([201, 201, 'true']);
    expect((await post('ñ'.repeat(256), aClient(22))).status).toBe(400);
  });

  itRacing('runs concurrent requests with one key exactly once and gives all of them the same answer', async () => {
    const body = aClient(8);
    const results = await Promise.all(Array.from({ length: 10 }, () => post('key-race', body)));
    expect(new Set(results.map((r) => r.status))).toEqual(new Set([201]));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(9);
    expect(await countClients(body.taxId)).toBe(1);
  });

  it('applies to associate status operations too', async () => {
    const associate = await ctx.api.call('post', '/v1/associates', {
      token: ctx.token,
      body: {
        type: 'DRIVER',
        name: 'I',
        lastName: 'D',
        taxId: validTaxId('20', 45000000),
        documentNumber: '45000000',
        email: 'i@d.example',
        phone: '+5491100000001',
      },
    });
    const del = () => ctx.api.call('delete', `/v1/associates/${associate.body.id}`, { token: ctx.token, headers: { 'Idempotency-Key': 'key-delete' } });
    expect((await del()).status).toBe(204);
    const again = await del();
    expect(again.status).toBe(204);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });
});
