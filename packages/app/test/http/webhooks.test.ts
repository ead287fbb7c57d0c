import { Webhook as StandardWebhook } from 'standardwebhooks';
import { useTestApi } from '../support/test-api';
import { key } from '../support/fixtures';
import { makeCertificates, startReceiver, type Receiver } from '../support/https-receiver';

const certificates = makeCertificates();

describe('webhooks', () => {
  // A threshold of 2: two failed attempts in a row make an ACTIVE webhook FAILED.
  const ctx = useTestApi({ WEBHOOK_CA_FILE: certificates.caFile, WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_FAILURE_THRESHOLD: '2' });
  const receivers: Receiver[] = [];
  const receiver = async (...answer: Parameters<typeof startReceiver> extends [unknown, ...infer Rest] ? Rest : never) => {
    const started = await startReceiver(certificates, ...answer);
    receivers.push(started);
    return started;
  };
  afterAll(async () => {
    for (const started of receivers) await started.close();
  });

  const call = (method: 'get' | 'post' | 'put' | 'delete', url: string, options: { body?: unknown; token?: string; headers?: Record<string, string> } = {}) =>
    ctx.api.call(method, url, { token: ctx.token, ...options });
  const register = async (body: object = {}) => {
    const res = await call('post', '/v1/webhooks', { body: { url: 'https://erp.example/hooks', events: ['receivable.paid'], ...body } });
    expect(res.status).toBe(201);
    return res.body as { id: number; secret: string; url: string; secretMaskedTail: string };
  };
  const url = (id: number, suffix = '') => `/v1/webhooks/${id}${suffix}`;

  it('registers an ACTIVE webhook and shows its secret once', async () => {
    const res = await call('post', '/v1/webhooks', {
      body: { url: 'https://erp.example/hooks', events: ['receivable.paid', 'movement.created', 'receivable.paid'] },
    });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(url(res.body.id));
    expect(res.body).toMatchObject({
      url: 'https://erp.example/hooks',
      events: ['receivable.paid', 'movement.created'],
      status: 'ACTIVE',
      lastDeliveryAt: null,
    });
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.body.secretMaskedTail).toBe(`...${res.body.secret.slice(-4)}`);
    const read = await call('get', url(res.body.id));
    expect(read.body).toEqual({ ...res.body, secret: undefined });
    expect(read.body).not.toHaveProperty('secret');
  });

  it('keeps the secret sealed in the database, never in clear', async () => {
    const { id, secret } = await register();
    const row = await ctx.api.db.knex('webhooks').where({ id }).first();
    expect(JSON.stringify(row)).not.toContain(secret.slice('whsec_'.length, 20));
    expect(row.secret_sealed).toMatch(/^v1\./);
  });

  it('refuses a url that is not https, and unknown or missing event types', async () => {
    const post = (body: object) => call('post', '/v1/webhooks', { body: { url: 'https://erp.example/hooks', events: ['receivable.paid'], ...body } });
    const http = await post({ url: 'http://erp.example/hooks' });
    expect([http.status, http.body.code, http.body.invalidParams]).toEqual([400, 'validation', [{ name: 'url', reason: 'must be an https:// URL' }]]);
    expect((await post({ url: 'not a url' })).body.invalidParams).toEqual([{ name: 'url', reason: 'must be an absolute URL' }]);
    const unknown = await post({ events: ['receivable.paid', 'receivable.eaten'] });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'invalid-event-type']);
    expect(unknown.body.detail).toContain('receivable.eaten');
    expect((await post({ events: [] })).body.invalidParams).toEqual([{ name: 'events', reason: 'must name at least one event type' }]);
    expect((await post({ events: 'receivable.paid' })).body.code).toBe('validation');
  });

  it("lists the caller's webhooks newest first with X-Total-Count, none of another customer's", async () => {
    const first = await register();
    const second = await register();
    const mine = await call('get', '/v1/webhooks?count=200');
    expect(mine.body.slice(0, 2).map((w: { id: number }) => w.id)).toEqual([second.id, first.id]);
    expect(Number(mine.headers['x-total-count'])).toBe(mine.body.length);
    expect(mine.body.every((w: object) => !('secret' in w))).toBe(true);
    const theirs = await call('get', '/v1/webhooks?count=200', { token: ctx.otherToken });
    expect(theirs.body.map((w: { id: number }) => w.id)).not.toContain(first.id);
  });

  it('changes the events, the url or both, keeping what is left out', async () => {
    const { id } = await register();
    const events = await call('put', url(id), { body: { events: ['receivable.settled'] } });
    expect(events.body).toMatchObject({ url: 'https://erp.example/hooks', events: ['receivable.settled'], status: 'ACTIVE' });
    const moved = await call('put', url(id), { body: { url: 'https://erp.example/v2/hooks' } });
    expect(moved.body).toMatchObject({ url: 'https://erp.example/v2/hooks', events: ['receivable.settled'] });
    expect((await call('put', url(id), { body: {} })).body.code).toBe('validation');
    expect((await call('put', url(id), { body: { url: 'http://erp.example' } })).body.invalidParams[0].name).toBe('url');
    for (const member of ['url', 'events']) {
      const nulled = await call('put', url(id), { body: { [member]: null } });
      expect([nulled.status, nulled.body.invalidParams]).toEqual([400, [{ name: member, reason: 'must not be null' }]]);
    }
    expect((await call('get', url(id))).body.modificationDate).toBe(moved.body.modificationDate);
  });

  it('pauses and activates, refusing a move the status does not allow with 422 webhook-status-conflict', async () => {
    const { id } = await register();
    expect((await call('post', url(id, '/pauses'))).body.status).toBe('PAUSED');
    const again = await call('post', url(id, '/pauses'));
    expect([again.status, again.body.code]).toEqual([422, 'webhook-status-conflict']);
    expect((await call('put', url(id), { body: { events: ['movement.created'] } })).body.status).toBe('PAUSED');
    expect((await call('post', url(id, '/activations'))).body.status).toBe('ACTIVE');
    const active = await call('post', url(id, '/activations'));
    expect([active.status, active.body.code]).toEqual([422, 'webhook-status-conflict']);
  });

  it('rotates the secret: a new one, shown once, its tail shown after', async () => {
    const { id, secret } = await register();
    const rotated = await call('post', url(id, '/secret-rotations'));
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(secret);
    expect((await call('get', url(id))).body.secretMaskedTail).toBe(`...${rotated.body.secret.slice(-4)}`);
  });

  it('deletes a webhook with 204; it is gone', async () => {
    const { id } = await register();
    const deleted = await call('delete', url(id));
    expect([deleted.status, deleted.text]).toEqual([204, '']);
    expect((await call('get', url(id))).status).toBe(404);
    expect((await call('get', url(id, '/deliveries'))).status).toBe(404);
  });

  it("answers 403 resource-not-accessible on another customer's webhook, with no effect, and 404 on an unknown one", async () => {
    const { id } = await register();
    const other = { token: ctx.otherToken };
    const attempts = [
      call('get', url(id), other),
      call('put', url(id), { ...other, body: { events: ['movement.created'] } }),
      call('delete', url(id), other),
      call('post', url(id, '/pauses'), other),
      call('post', url(id, '/activations'), other),
      call('post', url(id, '/secret-rotations'), other),
      call('post', url(id, '/deliveries'), { ...other, body: { eventType: 'webhook.test' } }),
      call('get', url(id, '/deliveries'), other),
    ];
    for (const res of await Promise.all(attempts)) expect([res.status, res.body.code]).toEqual([403, 'resource-not-accessible']);
    expect((await call('get', url(id))).body).toMatchObject({ status: 'ACTIVE', events: ['receivable.paid'] });
    expect((await call('get', url(987654321))).body.code).toBe('resource-not-found');
  });

  it('needs webhooks:read to read and webhooks:write to change', async () => {
    const { id } = await register();
    const customerId = (await call('get', '/v1/me')).body.customerId;
    const readOnly = await ctx.api.login(await ctx.api.app.credentials.create.execute({ customerId, scopes: ['webhooks:read'] }));
    expect((await call('get', url(id), { token: readOnly })).status).toBe(200);
    const refused = await call('post', url(id, '/pauses'), { token: readOnly });
    expect([refused.status, refused.body.code]).toEqual([403, 'insufficient-scope']);
    const noScope = await ctx.api.login(await ctx.api.app.credentials.create.execute({ customerId, scopes: ['clients:read'] }));
    expect((await call('get', '/v1/webhooks', { token: noScope })).body.code).toBe('insufficient-scope');
  });

  it('replays a registration sent again under the same Idempotency-Key', async () => {
    const headers = key('webhook');
    const body = { url: 'https://erp.example/hooks', events: ['receivable.created'] };
    const first = await call('post', '/v1/webhooks', { body, headers });
    const again = await call('post', '/v1/webhooks', { body, headers });
    expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([201, 'true', first.body]);
    const other = await call('post', '/v1/webhooks', { body: { ...body, events: ['receivable.paid'] }, headers });
    expect([other.status, other.body.code]).toEqual([409, 'idempotency-key-reuse']);
  });

  describe('test deliveries', () => {
    it('sends a signed webhook.test event, answers the result and records it in the history', async () => {
      const endpoint = await receiver();
      const { id, secret } = await register({ url: endpoint.url });
      const res = await call('post', url(id, '/deliveries'), { body: { eventType: 'receivable.paid' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ webhookId: id, eventType: 'webhook.test', attempt: 1, status: 'SUCCESS', responseCode: 200, failureReason: null });
      expect(Date.parse(res.body.attemptedAt)).toBeGreaterThanOrEqual(Date.parse(res.body.creationDate));
      const [{ headers, body }] = endpoint.received;
      const event = new StandardWebhook(secret).verify(body, headers as Record<string, string>);
      expect(event).toEqual({
        id: res.body.eventId,
        type: 'webhook.test',
        createdAt: expect.any(String),
        data: { webhook: { id, url: endpoint.url }, eventType: 'receivable.paid' },
      });
      expect(headers['webhook-id']).toBe(res.body.eventId);
      const history = await call('get', url(id, '/deliveries'));
      expect([history.body, history.headers['x-total-count']]).toEqual([[res.body], '1']);
      expect((await call('get', url(id))).body).toMatchObject({ lastDeliveryStatus: 'SUCCESS', lastDeliveryAt: expect.any(String) });
    });

    it('stores no test event: its id, in the history as webhook.test, is not an event to read or redeliver', async () => {
      const endpoint = await receiver();
      const { id } = await register({ url: endpoint.url });
      const test = (await call('post', url(id, '/deliveries'), { body: { eventType: 'webhook.test' } })).body;
      expect((await call('get', url(id, `/deliveries?eventId=${test.eventId}`))).body).toEqual([expect.objectContaining({ eventType: 'webhook.test' })]);
      const read = await call('get', `/v1/events/${test.eventId}`);
      const redelivered = await call('post', url(id, '/deliveries'), { body: { eventId: test.eventId } });
      expect([read.status, redelivered.status, redelivered.body.code]).toEqual([404, 404, 'resource-not-found']);
      expect(endpoint.received).toHaveLength(1);
    });

    it('signs with the old and the new secret after a rotation, each verifying alone', async () => {
      const endpoint = await receiver();
      const { id, secret: old } = await register({ url: endpoint.url });
      const { secret: current } = (await call('post', url(id, '/secret-rotations'))).body;
      expect((await call('post', url(id, '/deliveries'), { body: { eventType: 'webhook.test' } })).body.status).toBe('SUCCESS');
      const [{ headers, body }] = endpoint.received;
      expect(String(headers['webhook-signature']).split(' ')).toHaveLength(2);
      for (const secret of [old, current])
        expect(new StandardWebhook(secret).verify(body, headers as Record<string, string>)).toMatchObject({ id: headers['webhook-id'] });
    });

    it('keeps signing with every secret a rotation replaced within 24 h, each verifying alone', async () => {
      const endpoint = await receiver();
      const { id, secret: original } = await register({ url: endpoint.url });
      const rotate = async () => (await call('post', url(id, '/secret-rotations'))).body.secret as string;
      const rotated = [await rotate(), await rotate()];
      expect((await call('post', url(id, '/deliveries'), { body: { eventType: 'webhook.test' } })).body.status).toBe('SUCCESS');
      const [{ headers, body }] = endpoint.received;
      expect(String(headers['webhook-signature']).split(' ')).toHaveLength(3);
      for (const secret of [original, ...rotated])
        expect(new StandardWebhook(secret).verify(body, headers as Record<string, string>)).toMatchObject({ id: headers['webhook-id'] });
    });

    it('records a failing endpoint as FAILED with its status and reason, whatever the webhook status', async () => {
      const endpoint = await receiver((_req, res) => res.writeHead(500).end());
      const { id } = await register({ url: endpoint.url });
      await call('post', url(id, '/pauses'));
      const res = await call('post', url(id, '/deliveries'), { body: { eventType: 'movement.created' } });
      expect(res.body).toMatchObject({ status: 'FAILED', responseCode: 500, failureReason: 'answered 500' });
      expect((await call('get', url(id))).body).toMatchObject({ status: 'PAUSED', lastDeliveryStatus: 'FAILED' });
    });

    it('counts failed test deliveries towards WEBHOOK_FAILURE_THRESHOLD: the second in a row makes the webhook FAILED', async () => {
      const endpoint = await receiver((_req, res) => res.writeHead(503).end());
      const { id } = await register({ url: endpoint.url });
      const send = () => call('post', url(id, '/deliveries'), { body: { eventType: 'webhook.test' } });
      expect((await send()).body.status).toBe('FAILED');
      expect((await call('get', url(id))).body.status).toBe('ACTIVE');
      expect((await send()).body.status).toBe('FAILED');
      expect((await call('get', url(id))).body).toMatchObject({ status: 'FAILED', lastDeliveryStatus: 'FAILED' });
    });

    it('records an endpoint that cannot be reached as FAILED without a response code', async () => {
      const endpoint = await receiver();
      await endpoint.close();
      const { id } = await register({ url: endpoint.url });
      expect((await call('post', url(id, '/deliveries'), { body: { eventType: 'webhook.test' } })).body).toMatchObject({
        status: 'FAILED',
        responseCode: null,
      });
    });

    it('refuses an unknown eventType with 400 invalid-event-type, and neither eventType nor eventId with 400 validation', async () => {
      const { id } = await register();
      const unknown = await call('post', url(id, '/deliveries'), { body: { eventType: 'receivable.eaten' } });
      expect([unknown.status, unknown.body.code]).toEqual([400, 'invalid-event-type']);
      expect((await call('post', url(id, '/deliveries'), { body: {} })).body.invalidParams).toEqual([
        { name: 'body', reason: 'must carry eventType (a test event) or eventId (a redelivery), one of them' },
      ]);
      for (const member of ['eventType', 'eventId']) {
        const nulled = await call('post', url(id, '/deliveries'), { body: { [member]: null } });
        expect([nulled.status, nulled.body.code, nulled.body.invalidParams]).toEqual([400, 'validation', [{ name: member, reason: 'must not be null' }]]);
      }
    });

    it('filters the history by status, eventId, eventType and date, newest first', async () => {
      let fail = false;
      const endpoint = await receiver((_req, res) => res.writeHead(fail ? 503 : 204).end());
      const { id } = await register({ url: endpoint.url });
      const send = async () => (await call('post', url(id, '/deliveries'), { body: { eventType: 'webhook.test' } })).body as { id: number; eventId: string };
      const ok = await send();
      fail = true;
      const failed = await send();
      const ids = async (query: string) => (await call('get', url(id, `/deliveries${query}`))).body.map((d: { id: number }) => d.id);
      expect(await ids('')).toEqual([failed.id, ok.id]);
      expect(await ids('?status=FAILED')).toEqual([failed.id]);
      expect(await ids('?status=SUCCESS')).toEqual([ok.id]);
      expect(await ids(`?eventId=${ok.eventId}`)).toEqual([ok.id]);
      expect(await ids('?eventType=webhook.test&count=1')).toEqual([failed.id]);
      expect(await ids('?eventType=receivable.paid')).toEqual([]);
      expect(await ids('?fromDate=2000-01-01&toDate=2000-01-02')).toEqual([]);
      expect(await ids(`?fromDate=${new Date(Date.now() - 60_000).toISOString()}`)).toEqual([failed.id, ok.id]);
      expect((await call('get', url(id, '/deliveries?status=LOST'))).body.invalidParams[0].name).toBe('status');
      const unknown = await call('get', url(id, '/deliveries?eventType=nope'));
      expect([unknown.status, unknown.body.code, unknown.body.invalidParams.map((p: { name: string }) => p.name)]).toEqual([400, 'validation', ['eventType']]);
    });
  });
});
