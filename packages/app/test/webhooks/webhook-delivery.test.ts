import request from 'supertest';
import pino from 'pino';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { SIGNATURE_HEADER, signNotification } from '@rcs/adapters-bank';
import { EVENT_TYPES, EXPIRED_REASON } from '@rcs/domain';
import { loadConfig } from '../../src/config';
import { webhookWorkers } from '../../src/workers/webhook-workers';
import { TEST_NOTIFICATION_SECRET, useTestApi } from '../support/test-api';
import { activeAccount, key } from '../support/fixtures';
import { assertMatchesWebhookEvent } from '../support/openapi-contract';
import { makeCertificates, startReceiver, type ReceivedRequest, type Receiver } from '../support/https-receiver';
import { until } from '../support/until';

const certificates = makeCertificates();
/** The CONTRACT schedule shrunk 10,000 times: 0 s, 0.5 ms, 30 ms, 180 ms, 720 ms, ... */
const RETRY_SCALE = 0.0001;
const ENV = {
  WEBHOOK_CA_FILE: certificates.caFile,
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_RETRY_SCALE: String(RETRY_SCALE),
  WEBHOOK_FAILURE_THRESHOLD: '3',
  WEBHOOK_DISPATCH_POLL_MS: '20',
  WEBHOOK_DELIVERY_POLL_MS: '20',
};

interface Envelope {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

interface Attempt {
  eventId: string;
  eventType: string;
  attempt: number;
  status: string;
  responseCode: number | null;
  durationMs: number | null;
  failureReason: string | null;
  creationDate: string;
  attemptedAt: string | null;
  nextAttemptAt: string | null;
}

describe('webhook delivery: dispatcher and delivery worker against a real HTTPS receiver', () => {
  const workers = {} as { running?: ReturnType<typeof webhookWorkers> };
  const receivers: Receiver[] = [];
  // Before useTestApi's: the workers stop before the database closes under them.
  afterAll(async () => {
    await workers.running?.stop();
    for (const started of receivers) await started.close();
  });
  const ctx = useTestApi(ENV);
  beforeAll(() => {
    workers.running = webhookWorkers(ctx.api.app, loadConfig(ENV).webhooks, pino({ level: 'silent' }));
    workers.running.start();
  });

  /** A receiver answering `codes` in turn (the last one for every later request). */
  const receiver = async (codes: () => number = () => 200) => {
    const started = await startReceiver(certificates, (_req, res) => {
      res.statusCode = codes();
      res.end();
    });
    receivers.push(started);
    return started;
  };
  const call = (method: 'get' | 'post', url: string, body?: object, token = ctx.token) => ctx.api.call(method, url, { token, body });
  const register = async (url: string, events: readonly string[] = EVENT_TYPES, token = ctx.token) => {
    const res = await call('post', '/v1/webhooks', { url, events }, token);
    expect(res.status).toBe(201);
    return res.body as { id: number; secret: string };
  };
  const history = async (webhookId: number, query = '') => (await call('get', `/v1/webhooks/${webhookId}/deliveries?count=200${query}`)).body as Attempt[];
  const webhookOf = async (id: number) => (await call('get', `/v1/webhooks/${id}`)).body;
  const issue = async (accountId: number): Promise<{ id: number }> => {
    const body = { receivableAccountId: accountId, amount: '10.00', currencyCode: 'ARS', receivableType: 'INVOICE' };
    return (await ctx.api.call('post', '/v1/receivables', { token: ctx.token, body, headers: key('dlv') })).body;
  };
  const received = (r: Receiver, eventId: string) => r.received.filter((req) => req.headers['webhook-id'] === eventId);
  const verify = (secret: string, req: ReceivedRequest) =>
    new StandardWebhook(secret).verify(req.body, {
      'webhook-id': String(req.headers['webhook-id']),
      'webhook-timestamp': String(req.headers['webhook-timestamp']),
      'webhook-signature': String(req.headers['webhook-signature']),
    }) as Envelope;

  it('delivers every event of the money path, signed, carrying the envelope GET /v1/events answers', async () => {
    const endpoint = await receiver();
    const { id, secret } = await register(endpoint.url);
    await new Promise((resolve) => setTimeout(resolve, 2));
    const since = new Date().toISOString();
    const { account } = await activeAccount(ctx.api, ctx.token);
    const receivable = await issue(account.id);
    await ctx.api.call('patch', `/v1/receivables/${receivable.id}/status`, { token: ctx.token, body: { status: 'PAID' } });
    const cvu = (await call('get', `/v1/receivable-accounts/${account.id}`)).body.cvu;
    const transfer = JSON.stringify({
      notificationId: `dlv-${account.id}`,
      cvu,
      amount: '250.40',
      currencyCode: 'ARS',
      counterParty: { name: 'Pagador SA', taxId: '30-71234567-1' },
    });
    const notified = await request(ctx.api.http)
      .post('/bank/notifications/incoming-transfers')
      .set('content-type', 'application/json')
      .set(SIGNATURE_HEADER, signNotification(transfer, TEST_NOTIFICATION_SECRET))
      .send(transfer);
    expect(notified.status).toBe(201);
    await call('post', '/v1/sandbox/settlement-runs', {});

    const events = (await call('get', `/v1/events?count=200&fromDate=${encodeURIComponent(since)}`)).body as Envelope[];
    const types = new Set(events.map((e) => e.type));
    for (const type of [
      'receivable-account.activated',
      'receivable.created',
      'receivable.paid',
      'movement.created',
      'receivable.settled',
      'settlement.completed',
    ]) {
      expect(types).toContain(type);
    }
    await until('every event delivered', () => events.every((e) => received(endpoint, e.id).length > 0));
    for (const event of events) {
      const [delivery] = received(endpoint, event.id);
      expect(verify(secret, delivery)).toEqual(event);
      assertMatchesWebhookEvent(event.type, JSON.parse(delivery.body));
    }
    const attempts = await until('the history recorded', async () => {
      const listed = await history(id);
      return events.every((e) => listed.some((a) => a.eventId === e.id && a.status === 'SUCCESS')) && listed;
    });
    expect(attempts.find((a) => a.eventId === events[0].id)).toMatchObject({ eventType: events[0].type, attempt: 1, status: 'SUCCESS', responseCode: 200 });
    expect(await webhookOf(id)).toMatchObject({ status: 'ACTIVE', lastDeliveryStatus: 'SUCCESS', lastDeliveryAt: expect.any(String) });
    // Keep-alive: the events came over a few connections, not one each.
    expect(endpoint.connections()).toBeLessThan(events.length);
  });

  it('retries a failed attempt on the schedule, same webhook-id and body, each attempt in the history', async () => {
    let calls = 0;
    const endpoint = await receiver(() => (++calls <= 2 ? 500 : 200));
    const { id } = await register(endpoint.url, ['receivable.created']);
    const { account } = await activeAccount(ctx.api, ctx.token);
    const receivable = await issue(account.id);
    const attempts = await until('a successful third attempt', async () => {
      const listed = await history(id);
      return listed.some((a) => a.status === 'SUCCESS') && listed;
    });
    const eventId = attempts[0].eventId;
    const ofEvent = attempts.filter((a) => a.eventId === eventId).sort((a, b) => a.attempt - b.attempt);
    expect(ofEvent.map((a) => [a.attempt, a.status, a.responseCode])).toEqual([
      [1, 'FAILED', 500],
      [2, 'FAILED', 500],
      [3, 'SUCCESS', 200],
    ]);
    expect(ofEvent[0].failureReason).toBe('answered 500');
    // Attempt 3 is sent 5 min after attempt 2's failure, scaled: 30 ms, and none before the time it is dated.
    expect(Date.parse(ofEvent[2].attemptedAt!) - Date.parse(ofEvent[1].attemptedAt!)).toBeGreaterThanOrEqual(300_000 * RETRY_SCALE);
    for (const made of ofEvent) expect(Date.parse(made.attemptedAt!)).toBeGreaterThanOrEqual(Date.parse(made.creationDate));
    expect(ofEvent.map((a) => a.nextAttemptAt)).toEqual([null, null, null]);
    const bodies = received(endpoint, eventId).map((r) => r.body);
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]).data.receivable.id).toBe(receivable.id);
  });

  it('makes a webhook FAILED after the threshold of consecutive failures, holds its events, and an activation delivers them', async () => {
    let answer = 503;
    const endpoint = await receiver(() => answer);
    const { id } = await register(endpoint.url, ['receivable.created']);
    const { account } = await activeAccount(ctx.api, ctx.token);
    await issue(account.id);
    await until('FAILED after 3 failures', async () => (await webhookOf(id)).status === 'FAILED');
    expect(await webhookOf(id)).toMatchObject({ status: 'FAILED', lastDeliveryStatus: 'FAILED' });
    const heldWhileFailed = await issue(account.id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sentBefore = endpoint.received.length;
    expect(endpoint.received.every((r) => JSON.parse(r.body).data.receivable.id !== heldWhileFailed.id)).toBe(true);
    answer = 200;
    expect((await call('post', `/v1/webhooks/${id}/activations`, {})).body.status).toBe('ACTIVE');
    await until('the held events delivered', () =>
      endpoint.received.slice(sentBefore).some((r) => JSON.parse(r.body).data.receivable.id === heldWhileFailed.id),
    );
    await until('the success recorded', async () => (await webhookOf(id)).lastDeliveryStatus === 'SUCCESS');
    expect((await webhookOf(id)).status).toBe('ACTIVE');
  });

  it('holds a PAUSED webhook’s events, delivers them on resume, and expires those held past the retention', async () => {
    const endpoint = await receiver();
    const { id } = await register(endpoint.url, ['receivable.created']);
    await call('post', `/v1/webhooks/${id}/pauses`, {});
    const { account } = await activeAccount(ctx.api, ctx.token);
    const kept = await issue(account.id);
    const tooOld = await issue(account.id);
    await until('both attempts held', async () => (await history(id, '&status=PENDING')).length === 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(endpoint.received).toHaveLength(0);
    // The second one has waited longer than WEBHOOK_RETENTION_HOURS (72).
    const oldEvent = (
      await ctx.api.db
        .knex('outbox_events')
        .whereRaw("data->'receivable'->>'id' = ?", [String(tooOld.id)])
        .first()
    ).id;
    await ctx.api.db
      .knex('webhook_deliveries')
      .where({ webhook_id: id, event_id: oldEvent })
      .update({ created_at: new Date(Date.now() - 73 * 3_600_000) });
    await call('post', `/v1/webhooks/${id}/activations`, {});
    await until('the kept event delivered', () => endpoint.received.some((r) => JSON.parse(r.body).data.receivable.id === kept.id));
    const [expired] = await history(id, `&eventId=${oldEvent}`);
    expect(expired).toMatchObject({ status: 'FAILED', failureReason: EXPIRED_REASON, responseCode: null });
    expect(endpoint.received.some((r) => JSON.parse(r.body).data.receivable.id === tooOld.id)).toBe(false);
  });

  it("keeps a walk of the history by its Link whole while a paused webhook's held attempts are sent, each dated when sent", async () => {
    const endpoint = await receiver();
    const { id } = await register(endpoint.url, ['receivable.created']);
    await call('post', `/v1/webhooks/${id}/pauses`, {});
    const { account } = await activeAccount(ctx.api, ctx.token);
    for (let i = 0; i < 6; i++) await issue(account.id);
    await until('six attempts held', async () => (await history(id, '&status=PENDING')).length === 6);
    const walked: Attempt[] = [];
    let next: string | undefined = `/v1/webhooks/${id}/deliveries?count=2`;
    while (next) {
      const page = await call('get', next);
      walked.push(...(page.body as Attempt[]));
      next = /<([^>]+)>; rel="next"/.exec(String(page.headers.link ?? ''))?.[1];
      if (walked.length === 2) {
        // Sent between two pages: none of them may move ahead of the walk's place.
        await call('post', `/v1/webhooks/${id}/activations`, {});
        await until('the held attempts sent', async () => (await history(id, '&status=SUCCESS')).length === 6);
      }
    }
    expect(walked.map((a) => a.eventId).sort()).toEqual((await history(id)).map((a) => a.eventId).sort());
    expect(new Set(walked.map((a) => a.eventId)).size).toBe(6);
    for (const made of await history(id)) {
      expect(made).toMatchObject({ status: 'SUCCESS', creationDate: expect.any(String), attemptedAt: expect.any(String) });
      expect(Date.parse(made.attemptedAt!)).toBeGreaterThanOrEqual(Date.parse(made.creationDate));
    }
  });

  it('signs with both secrets during the rotation grace window', async () => {
    const endpoint = await receiver();
    const { id, secret: before } = await register(endpoint.url, ['receivable.created']);
    const after = (await call('post', `/v1/webhooks/${id}/secret-rotations`, {})).body.secret as string;
    const { account } = await activeAccount(ctx.api, ctx.token);
    await issue(account.id);
    const [delivery] = await until('a delivery', () => endpoint.received.length > 0 && endpoint.received);
    expect(String(delivery.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(before, delivery).type).toBe('receivable.created');
    expect(verify(after, delivery).type).toBe('receivable.created');
  });

  it('sends a test delivery once under an Idempotency-Key: a repeat sent while the endpoint answers waits and replays it', async () => {
    const endpoint = await startReceiver(certificates, (_req, res) => {
      setTimeout(() => res.end(), 400);
    });
    receivers.push(endpoint);
    const { id } = await register(endpoint.url, ['receivable.created']);
    const headers = key('test-delivery');
    const send = (body: object) => ctx.api.call('post', `/v1/webhooks/${id}/deliveries`, { token: ctx.token, body, headers });
    const first = send({ eventType: 'receivable.paid' });
    await until('the first attempt at the endpoint', () => endpoint.received.length > 0);
    const repeat = await send({ eventType: 'receivable.paid' });
    expect((await first).status).toBe(200);
    expect([repeat.status, repeat.headers['idempotent-replayed'], repeat.body]).toEqual([200, 'true', (await first).body]);
    expect(endpoint.received).toHaveLength(1);
    expect(await history(id)).toHaveLength(1);
    const other = await send({ eventType: 'receivable.created' });
    expect([other.status, other.body.code]).toEqual([409, 'idempotency-key-reuse']);
    expect((await call('post', `/v1/webhooks/${id}/deliveries`, { eventType: 'receivable.paid' })).body).toMatchObject({ attempt: 1, status: 'SUCCESS' });
    expect(endpoint.received).toHaveLength(2);
  });

  it('redelivers an event by eventId now: the next attempt, same webhook-id and body, and refuses events it may not send', async () => {
    const endpoint = await receiver();
    const { id, secret } = await register(endpoint.url, ['receivable.created']);
    const { account } = await activeAccount(ctx.api, ctx.token);
    const receivable = await issue(account.id);
    const [original] = await until('the first delivery', () => endpoint.received.length > 0 && endpoint.received);
    const eventId = String(original.headers['webhook-id']);
    await until('its success recorded', async () => (await history(id)).some((a) => a.status === 'SUCCESS'));

    const again = await call('post', `/v1/webhooks/${id}/deliveries`, { eventId });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ eventId, eventType: 'receivable.created', attempt: 2, status: 'SUCCESS', responseCode: 200 });
    expect(endpoint.received).toHaveLength(2);
    expect(endpoint.received[1].body).toBe(original.body);
    expect(verify(secret, endpoint.received[1]).data).toMatchObject({ receivable: { id: receivable.id } });

    const missing = await call('post', `/v1/webhooks/${id}/deliveries`, { eventId: 'evt_nothere' });
    expect([missing.status, missing.body.code]).toEqual([404, 'resource-not-found']);
    await activeAccount(ctx.api, ctx.otherToken);
    const [otherEvent] = (await call('get', '/v1/events?count=1', undefined, ctx.otherToken)).body as Envelope[];
    const foreign = await call('post', `/v1/webhooks/${id}/deliveries`, { eventId: otherEvent.id });
    expect([foreign.status, foreign.body.code]).toEqual([403, 'resource-not-accessible']);
    const both = await call('post', `/v1/webhooks/${id}/deliveries`, { eventId, eventType: 'webhook.test' });
    expect([both.status, both.body.code]).toEqual([400, 'validation']);
    expect(endpoint.received).toHaveLength(2);
  });
});
