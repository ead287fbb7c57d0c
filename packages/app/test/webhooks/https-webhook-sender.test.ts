import { readFileSync } from 'node:fs';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { HttpsWebhookSender, type WebhookSenderOptions } from '@rcs/adapters-http';
import { makeCertificates, startReceiver, type Receiver } from '../support/https-receiver';

const certificates = makeCertificates();
const SECRET = `whsec_${Buffer.from('a-test-secret-of-24-bytes').toString('base64')}`;

describe('HTTPS webhook sender', () => {
  const senders: HttpsWebhookSender[] = [];
  const receivers: Receiver[] = [];
  const senderWith = (options: Partial<WebhookSenderOptions> = {}) => {
    const sender = new HttpsWebhookSender({
      timeoutMs: 2_000,
      maxConnectionsPerEndpoint: 4,
      reach: 'public-and-loopback',
      extraCa: readFileSync(certificates.caFile, 'utf8'),
      ...options,
    });
    senders.push(sender);
    return sender;
  };
  const receiver = async (...args: Parameters<typeof startReceiver> extends [unknown, ...infer Rest] ? Rest : never) => {
    const started = await startReceiver(certificates, ...args);
    receivers.push(started);
    return started;
  };
  const send = (sender: HttpsWebhookSender, url: string, body = '{"id":"evt_1","type":"webhook.test"}', webhookId = 1) =>
    sender.send({ webhookId, url, eventId: 'evt_1', body, secrets: [SECRET] });

  afterAll(async () => {
    for (const sender of senders) sender.close();
    for (const started of receivers) await started.close();
  });

  it('posts the body signed the Standard Webhooks way, trusting the CA of WEBHOOK_CA_FILE', async () => {
    const endpoint = await receiver();
    const result = await send(senderWith(), endpoint.url);
    expect(result).toMatchObject({ status: 'SUCCESS', responseCode: 200, failureReason: null });
    const [{ headers, body }] = endpoint.received;
    expect([headers['content-type'], headers['webhook-id'], body]).toEqual(['application/json', 'evt_1', '{"id":"evt_1","type":"webhook.test"}']);
    expect(new StandardWebhook(SECRET).verify(body, headers as Record<string, string>)).toEqual({ id: 'evt_1', type: 'webhook.test' });
  });

  it('refuses an endpoint whose certificate no trusted CA signed', async () => {
    const endpoint = await receiver();
    const result = await send(senderWith({ extraCa: undefined }), endpoint.url);
    expect(result).toMatchObject({ status: 'FAILED', responseCode: null });
    expect(endpoint.received).toEqual([]);
  });

  it('keeps the connection to an endpoint open between deliveries', async () => {
    const endpoint = await receiver();
    const sender = senderWith();
    for (let i = 0; i < 3; i++) expect((await send(sender, endpoint.url)).status).toBe('SUCCESS');
    expect([endpoint.received.length, endpoint.connections()]).toEqual([3, 1]);
  });

  it('fails a redirect without following it', async () => {
    const target = await receiver();
    const redirecting = await receiver((_req, res) => res.writeHead(302, { location: target.url }).end());
    const result = await send(senderWith(), redirecting.url);
    expect(result).toMatchObject({ status: 'FAILED', responseCode: 302, failureReason: 'redirect (302) not followed' });
    expect(target.received).toEqual([]);
  });

  it('fails an answer other than 2xx, with its status', async () => {
    const endpoint = await receiver((_req, res) => res.writeHead(503).end('busy'));
    expect(await send(senderWith(), endpoint.url)).toMatchObject({ status: 'FAILED', responseCode: 503, failureReason: 'answered 503' });
  });

  it('times a hanging endpoint out without holding up another endpoint', async () => {
    const hanging = await receiver(() => undefined);
    const quick = await receiver();
    const sender = senderWith({ timeoutMs: 1_000 });
    const slow = send(sender, hanging.url);
    const fast = await send(sender, quick.url);
    expect(fast.status).toBe('SUCCESS');
    expect(fast.durationMs).toBeLessThan(500);
    expect(await slow).toMatchObject({ status: 'FAILED', responseCode: null, failureReason: 'no complete answer within 1000 ms' });
  });

  it("keeps one webhook's hanging URL from holding up another webhook's on the same host and port", async () => {
    const endpoint = await receiver((req, res) => {
      if (!req.url?.endsWith('/hang')) res.end('ok');
    });
    const sender = senderWith({ timeoutMs: 1_000, maxConnectionsPerEndpoint: 2 });
    const hanging = [send(sender, `${endpoint.url}/hang`, undefined, 1), send(sender, `${endpoint.url}/hang`, undefined, 1)];
    // The hanging webhook holds both of its connections; the other webhook's are its own.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const fast = await send(sender, `${endpoint.url}/ok`, undefined, 2);
    expect(fast.status).toBe('SUCCESS');
    expect(fast.durationMs).toBeLessThan(500);
    for (const result of await Promise.all(hanging)) expect(result.failureReason).toBe('no complete answer within 1000 ms');
  });

  it('never makes an attempt wait for connections other webhooks keep open and idle', async () => {
    const endpoint = await receiver();
    const sender = senderWith({ timeoutMs: 1_000, maxConnectionsPerEndpoint: 2 });
    // Bursts of many webhooks leave their connections open and idle (the receiver keeps them alive for seconds).
    const bursts = await Promise.all([1, 1, 2, 2, 3, 3].map((webhookId) => send(sender, endpoint.url, undefined, webhookId)));
    expect(bursts.every((result) => result.status === 'SUCCESS')).toBe(true);
    const next = await send(sender, endpoint.url, undefined, 4);
    expect(next.status).toBe('SUCCESS');
    expect(next.durationMs).toBeLessThan(500);
  });

  it('fails a 2xx whose body does not end within the deadline', async () => {
    const trickling = await receiver((_req, res) => {
      res.writeHead(200);
      res.write('partial');
    });
    expect(await send(senderWith({ timeoutMs: 500 }), trickling.url)).toMatchObject({ status: 'FAILED', failureReason: 'no complete answer within 500 ms' });
  });

  it('stops reading a huge answer at the cap and keeps its status', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    const huge = await receiver((_req, res) => {
      res.writeHead(200);
      // 1 GB announced and written as long as the connection lasts: a sender reading it all would take far longer.
      let sent = 0;
      const pump = () => {
        while (sent < 1024 && res.write(chunk)) sent++;
        if (sent < 1024) res.once('drain', pump);
        else res.end();
      };
      res.on('error', () => undefined);
      pump();
    });
    const result = await send(senderWith({ timeoutMs: 10_000 }), huge.url);
    expect(result).toMatchObject({ status: 'SUCCESS', responseCode: 200 });
    expect(result.durationMs).toBeLessThan(2_000);
  });

  it('in production, refuses to connect to an internal address, whatever name leads there', async () => {
    const endpoint = await receiver();
    const result = await send(senderWith({ reach: 'public' }), endpoint.url);
    expect(result.status).toBe('FAILED');
    expect(result.failureReason).toContain('does not resolve to a public address');
    const literal = await send(senderWith({ reach: 'public' }), endpoint.url.replace('localhost', '127.0.0.1'));
    expect(literal).toMatchObject({
      status: 'FAILED',
      failureReason: '127.0.0.1 does not resolve to a public address: webhooks may reach public addresses only',
    });
    expect(endpoint.received).toEqual([]);
    expect((await send(senderWith(), endpoint.url.replace('localhost', '127.0.0.1'))).status).toBe('SUCCESS');
  });

  it('in the sandbox, reaches loopback but no private or link-local address (CONTRACT)', async () => {
    const sandbox = senderWith({ timeoutMs: 500 });
    for (const url of ['https://169.254.169.254/latest', 'https://10.1.2.3/hooks', 'https://[fd00::1]/hooks']) {
      const result = await send(sandbox, url);
      expect(result).toMatchObject({ status: 'FAILED', durationMs: 0 });
      expect(result.failureReason).toContain('does not resolve to a public address');
    }
  });
});
