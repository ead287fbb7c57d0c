import { scrypt } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { HttpsWebhookSender, isPublicAddress, networkResolver, PublicAddressUrlPolicy, sandboxUrlPolicy, type WebhookSenderOptions } from '@rcs/adapters-http';
import { makeCertificates, startReceiver, type Receiver } from '../support/https-receiver';
import { startNameserver } from '../support/fake-nameserver';

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
    expect(result.failureReason).toContain('an internal address webhooks may not reach');
    const literal = await send(senderWith({ reach: 'public' }), endpoint.url.replace('localhost', '127.0.0.1'));
    expect(literal).toMatchObject({ status: 'FAILED', failureReason: '127.0.0.1 is an internal address webhooks may not reach' });
    expect(endpoint.received).toEqual([]);
    expect((await send(senderWith(), endpoint.url.replace('localhost', '127.0.0.1'))).status).toBe('SUCCESS');
  });

  it('in the sandbox, reaches loopback but no private or link-local address (CONTRACT)', async () => {
    const sandbox = senderWith({ timeoutMs: 500 });
    for (const url of ['https://169.254.169.254/latest', 'https://10.1.2.3/hooks', 'https://[fd00::1]/hooks']) {
      const result = await send(sandbox, url);
      expect(result).toMatchObject({ status: 'FAILED', durationMs: 0 });
      expect(result.failureReason).toContain('an internal address webhooks may not reach');
    }
  });
});

describe('host names in production', () => {
  const nameservers: Array<{ close(): void }> = [];
  const nameserver = async (answers: Parameters<typeof startNameserver>[0]) => {
    const started = await startNameserver(answers);
    nameservers.push(started);
    return started;
  };
  afterAll(() => nameservers.forEach((started) => started.close()));
  const timed = async <T>(work: () => Promise<T>) => {
    const started = performance.now();
    const outcome = await work().catch((error: Error) => error);
    return { outcome, ms: performance.now() - started };
  };

  it('are resolved with a deadline off the threads password hashes use, so a hanging nameserver stalls neither', async () => {
    const silent = await nameserver({ a: 'silent', aaaa: 'silent' });
    const resolveHost = networkResolver({ timeoutMs: 1_000, deadlineMs: 1_500, servers: [silent.server] });
    const sender = new HttpsWebhookSender({ timeoutMs: 10_000, maxConnectionsPerEndpoint: 8, reach: 'public', resolveHost });
    const started = performance.now();
    // More lookups at once than libuv has threads: through getaddrinfo, these would hold all four.
    const attempts = Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        sender.send({ webhookId: n, url: `https://hangs${n}.example/hooks`, eventId: 'evt_1', body: '{}', secrets: [SECRET] }),
      ),
    );
    const hash = () => new Promise((resolve, reject) => scrypt('password', 'salt', 32, { N: 1024 }, (error, key) => (error ? reject(error) : resolve(key))));
    const hashes = Promise.all(Array.from({ length: 4 }, hash));
    const first = await Promise.race([hashes.then(() => 'hashes'), attempts.then(() => 'attempts')]);
    expect(first).toBe('hashes');
    const results = await attempts;
    sender.close();
    expect(silent.queries()).toBeGreaterThanOrEqual(8);
    for (const result of results) expect(result).toMatchObject({ status: 'FAILED', responseCode: null, failureReason: expect.stringContaining('ETIMEOUT') });
    // The deadline, not the system's (glibc: 5 s a query, twice).
    expect(performance.now() - started).toBeLessThan(8_000);
  });

  it('end at the deadline whatever the nameservers do, saying so', async () => {
    const silent = await nameserver({ a: 'silent', aaaa: 'silent' });
    const resolve = networkResolver({ timeoutMs: 5_000, deadlineMs: 300, servers: [silent.server] });
    const { outcome, ms } = await timed(() => resolve('hangs.example', 0));
    expect(outcome).toMatchObject({ code: 'ETIMEOUT', message: 'hangs.example did not resolve within 0.3 s' });
    expect(ms).toBeLessThan(4_000);
  });

  it('answer with IPv4 without waiting long for IPv6, whose nameserver drops its queries; IPv6 alone when IPv4 has none', async () => {
    const v4Only = await nameserver({ a: { address: '93.184.215.14' }, aaaa: 'silent' });
    const v6Only = await nameserver({ a: 'none', aaaa: { address: '2606:4700:4700:0:0:0:0:1111' } });
    const deadlineMs = 5_000;
    const v4 = await timed(() => networkResolver({ timeoutMs: 4_000, deadlineMs, servers: [v4Only.server] })('erp.example', 0));
    const v6 = await timed(() => networkResolver({ timeoutMs: 4_000, deadlineMs, servers: [v6Only.server] })('erp.example', 0));
    expect([v4.outcome, v6.outcome]).toEqual([[{ address: '93.184.215.14', family: 4 }], [{ address: '2606:4700:4700::1111', family: 6 }]]);
    expect(Math.max(v4.ms, v6.ms)).toBeLessThan(deadlineMs / 2);
  });

  it('wait for IPv4 when IPv6 answers first: a host is not left with addresses a machine without IPv6 cannot reach', async () => {
    const both = await nameserver({ a: { address: '93.184.215.14', afterMs: 300 }, aaaa: { address: '2606:4700:4700:0:0:0:0:1111' } });
    const { outcome } = await timed(() => networkResolver({ timeoutMs: 4_000, deadlineMs: 5_000, servers: [both.server] })('erp.example', 0));
    expect(outcome).toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:4700:4700::1111', family: 6 },
    ]);
  });

  it('tell why a host did not resolve: a timeout over the other family having no address', async () => {
    const half = await nameserver({ a: 'none', aaaa: 'silent' });
    const { outcome } = await timed(() => networkResolver({ timeoutMs: 300, deadlineMs: 5_000, servers: [half.server] })('erp.example', 0));
    expect(outcome).toMatchObject({ code: 'ETIMEOUT' });
  });

  it('take localhost and its subdomains for loopback, refused, and literal addresses as they are', async () => {
    const resolve = networkResolver({ timeoutMs: 100, deadlineMs: 200, servers: ['127.0.0.1:9'] });
    expect(await resolve('localhost', 0)).toEqual([
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
    expect(await resolve('api.localhost', 4)).toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(await resolve('93.184.215.14', 0)).toEqual([{ address: '93.184.215.14', family: 4 }]);
    await expect(new PublicAddressUrlPolicy().check('https://api.localhost/hooks')).rejects.toMatchObject({
      invalidParams: [{ name: 'url', reason: 'api.localhost resolves to 127.0.0.1, an internal address webhooks may not reach' }],
    });
  });
});

describe('webhook address policy (sandbox)', () => {
  it.each([
    'https://169.254.169.254/latest',
    'https://10.1.2.3/hooks',
    'https://192.168.0.7/hooks',
    'https://[fe80::1]/hooks',
    'https://[::ffff:0:a00:1]/hooks',
    'https://[2002:a00:1::]/hooks',
  ])('refuses %s with 400 validation on url', async (url) => {
    await expect(sandboxUrlPolicy.check(url)).rejects.toMatchObject({ code: 'validation', invalidParams: [{ name: 'url', reason: expect.any(String) }] });
  });

  it.each(['https://127.0.0.1:4443/hooks', 'https://localhost/hooks', 'https://[::1]/hooks', 'https://receiver.example/hooks'])('accepts %s', async (url) => {
    await expect(sandboxUrlPolicy.check(url)).resolves.toBeUndefined();
  });
});

describe('webhook address policy (production)', () => {
  const policy = new PublicAddressUrlPolicy();

  it.each(['https://127.0.0.1/hooks', 'https://localhost/hooks', 'https://10.1.2.3/hooks', 'https://[::1]/hooks', 'https://169.254.169.254/latest'])(
    'refuses %s with 400 validation on url',
    async (url) => {
      await expect(policy.check(url)).rejects.toMatchObject({ code: 'validation', invalidParams: [{ name: 'url', reason: expect.any(String) }] });
    },
  );

  it('accepts a public address', async () => {
    await expect(policy.check('https://93.184.215.14/hooks')).resolves.toBeUndefined();
  });

  it('looks a host that passed up again after a minute, one refused every time, and remembers 1,000 hosts at most', async () => {
    let now = 0;
    const asked: string[] = [];
    const lookup: LookupFunction = (host, _options, callback) => {
      asked.push(host);
      if (host.startsWith('internal')) callback(new Error(`${host} resolves to 10.0.0.1`), '', 0);
      else (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, [{ address: '93.184.215.14', family: 4 }]);
    };
    const remembering = new PublicAddressUrlPolicy(5_000, lookup, () => now);
    const check = (host: string) =>
      remembering.check(`https://${host}/hooks`).then(
        () => 'passed',
        () => 'refused',
      );
    expect([await check('erp.example'), await check('erp.example'), await check('internal.example'), await check('internal.example')]).toEqual([
      'passed',
      'passed',
      'refused',
      'refused',
    ]);
    expect(asked).toEqual(['erp.example', 'internal.example', 'internal.example']);
    now += 60_001;
    await check('erp.example');
    expect(asked.filter((host) => host === 'erp.example')).toHaveLength(2);
    for (let n = 0; n < 1_000; n++) await check(`h${n}.example`);
    asked.length = 0;
    await check('erp.example');
    await check('h999.example');
    expect(asked).toEqual(['erp.example']);
  });

  it('refuses a host whose name does not resolve in time, so a registration holds its transaction no longer', async () => {
    const silent = new PublicAddressUrlPolicy(50, () => undefined);
    await expect(silent.check('https://erp.example/hooks')).rejects.toMatchObject({
      code: 'validation',
      invalidParams: [{ name: 'url', reason: 'erp.example did not resolve within 0.05 s' }],
    });
  });

  it.each([
    ['8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['192.168.1.10', false],
    ['172.20.0.1', false],
    ['100.64.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['fd00::1', false],
    ['fe80::1', false],
    ['::a9fe:a9fe', false],
    ['::ffff:808:808', true],
    ['::ffff:a9fe:a9fe', false],
    ['2001:4860:4860::8888', true],
    ['::ffff:0:a00:1', false],
    ['64:ff9b::a00:1', false],
    ['64:ff9b:1::a00:1', false],
    ['2002:a00:1::', false],
    ['2001:0:4136:e378::1', false],
    ['2001:db8::1', false],
    ['fec0::1', false],
    ['100::1', false],
    ['192.0.2.1', false],
    ['198.51.100.1', false],
    ['203.0.113.5', false],
    ['255.255.255.255', false],
  ])('judges %s public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});
