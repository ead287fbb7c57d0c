import type { ServerResponse } from 'node:http';
import { makeCertificates, startReceiver, type Receiver } from './support/https-receiver';
import { startOwnService, type OwnService } from './support/processes';
import { until } from './support/until';

const certificates = makeCertificates();
const DRAIN_MS = 1_500;

/**
 * SIGTERM as a deployment sends it: the service keeps serving for SHUTDOWN_DRAIN_MS while /health tells the load
 * balancer to stop sending, then stops accepting, finishes the requests in flight and exits 0. A webhook test
 * delivery to a receiver that holds its answer is the request in flight.
 */
describe('shutting down on SIGTERM', () => {
  let service: OwnService;
  let receiver: Receiver;
  const held: ServerResponse[] = [];

  beforeAll(async () => {
    receiver = await startReceiver(certificates, (_req, res) => held.push(res));
    service = await startOwnService({ SHUTDOWN_DRAIN_MS: String(DRAIN_MS), WEBHOOK_CA_FILE: certificates.caFile });
  }, 60_000);

  afterAll(async () => {
    for (const res of held) res.end('ok');
    await service.stop();
    await receiver.close();
  });

  const json = async (answer: Promise<Response> | Response) => (await (await answer).json()) as Record<string, unknown>;
  const call = (route: string, token?: string, body?: unknown) =>
    fetch(`${service.url}${route}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('drains, then finishes the request in flight and exits 0', async () => {
    const accessToken = String((await json(call('/v1/auth/login', undefined, { clientId: 'sandbox-client', clientSecret: 'sandbox-secret' }))).accessToken);
    const webhook = await json(call('/v1/webhooks', accessToken, { url: receiver.url, events: ['receivable.created'] }));
    const inFlight = call(`/v1/webhooks/${Number(webhook.id)}/deliveries`, accessToken, { eventType: 'webhook.test' });
    await until('the test delivery at the receiver', () => held.length === 1);

    const signalled = Date.now();
    service.process.child.kill('SIGTERM');
    await until('/health to answer 503', async () => (await call('/health')).status === 503);
    expect(await json(call('/health'))).toEqual({ status: 'draining', database: 'up' });
    const meanwhile = await call('/v1/me', accessToken);
    expect([meanwhile.status, meanwhile.headers.get('connection')]).toEqual([200, 'close']);

    // Once the drain is over, no new connection is taken; the one in flight is still answered.
    await until(
      'connections refused',
      () =>
        call('/health').then(
          () => false,
          () => true,
        ),
      10_000,
    );
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(DRAIN_MS);
    expect(service.process.child.exitCode).toBeNull();
    held[0].end('ok');
    const answered = await inFlight;
    expect([answered.status, (await json(answered)).status]).toEqual([200, 'SUCCESS']);
    expect(await service.process.exit).toEqual([0, null]);
  }, 60_000);
});
