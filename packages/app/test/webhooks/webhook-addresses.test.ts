import { scrypt } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { HttpsWebhookSender, isPublicAddress, networkResolver, PublicAddressUrlPolicy, reachableLookup, sandboxUrlPolicy } from '@rcs/adapters-http';
import type { ValidationError } from '@rcs/domain';
import { startNameserver } from '../support/fake-nameserver';

const SECRET = `whsec_${Buffer.from('a-test-secret-of-24-bytes').toString('base64')}`;
const NOT_PUBLIC = (host: string) => `${host} does not resolve to a public address: webhooks may reach public addresses only`;

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
      invalidParams: [{ name: 'url', reason: NOT_PUBLIC('api.localhost') }],
    });
  });

  it('say of an internal name neither where it leads nor whether it resolves, at registration and at delivery', async () => {
    const dns = await nameserver({ a: 'none', aaaa: 'none' });
    const resolveHost = networkResolver({ timeoutMs: 500, deadlineMs: 1_000, servers: [dns.server] });
    const policy = new PublicAddressUrlPolicy(1_000, reachableLookup('public', resolveHost));
    const reasonOf = (url: string) =>
      policy.check(url).then(
        () => 'passed',
        (error: ValidationError) => error.invalidParams?.[0]?.reason,
      );
    expect([await reasonOf('https://db.localhost/hooks'), await reasonOf('https://gone.example/hooks')]).toEqual([
      NOT_PUBLIC('db.localhost'),
      NOT_PUBLIC('gone.example'),
    ]);
    const sender = new HttpsWebhookSender({ timeoutMs: 1_000, maxConnectionsPerEndpoint: 1, reach: 'public', resolveHost });
    const sent = (host: string) => sender.send({ webhookId: 1, url: `https://${host}/hooks`, eventId: 'evt_1', body: '{}', secrets: [SECRET] });
    expect([(await sent('db.localhost')).failureReason, (await sent('gone.example')).failureReason]).toEqual([
      `EWEBHOOKINTERNAL: ${NOT_PUBLIC('db.localhost')}`,
      `EWEBHOOKINTERNAL: ${NOT_PUBLIC('gone.example')}`,
    ]);
    sender.close();
  });

  it('say a nameserver failing is the fault of neither the url nor its address, at registration and at delivery', async () => {
    const dns = await nameserver({ a: 'servfail', aaaa: 'servfail' });
    const resolveHost = networkResolver({ timeoutMs: 500, deadlineMs: 1_000, servers: [dns.server] });
    const refusal = await new PublicAddressUrlPolicy(1_000, reachableLookup('public', resolveHost))
      .check('https://erp.example/hooks')
      .catch((error: ValidationError) => error);
    expect(refusal).toMatchObject({ invalidParams: [{ name: 'url', reason: 'erp.example could not be resolved just now (ESERVFAIL): try again later' }] });
    const sender = new HttpsWebhookSender({ timeoutMs: 1_000, maxConnectionsPerEndpoint: 1, reach: 'public', resolveHost });
    const sent = await sender.send({ webhookId: 1, url: 'https://erp.example/hooks', eventId: 'evt_1', body: '{}', secrets: [SECRET] });
    sender.close();
    expect(sent.failureReason).toContain('ESERVFAIL');
    expect(sent.failureReason).not.toContain('public address');
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
