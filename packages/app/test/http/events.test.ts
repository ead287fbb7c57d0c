import { useTestApi } from '../support/test-api';
import { activeAccount, key } from '../support/fixtures';

interface Envelope {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, { id: number; status?: string }>;
}

describe('events API', () => {
  const ctx = useTestApi();
  const get = (url: string, token = ctx.token) => ctx.api.call('get', url, { token });
  /** What this describe's writes recorded: events from `since` on. */
  const world = {} as { since: string; accountId: number; receivableIds: number[]; events: Envelope[] };

  beforeAll(async () => {
    // A millisecond apart from anything before, so the fromDate window holds only what follows.
    await new Promise((resolve) => setTimeout(resolve, 2));
    world.since = new Date().toISOString();
    const { account } = await activeAccount(ctx.api, ctx.token);
    world.accountId = account.id;
    world.receivableIds = [];
    for (const amount of ['10.00', '20.00']) {
      const res = await ctx.api.call('post', '/v1/receivables', {
        token: ctx.token,
        body: { receivableAccountId: account.id, amount, currencyCode: 'ARS', receivableType: 'INVOICE' },
        headers: key('evt'),
      });
      world.receivableIds.push(res.body.id);
    }
    await ctx.api.call('patch', `/v1/receivables/${world.receivableIds[0]}/status`, { token: ctx.token, body: { status: 'PAID' } });
    const listed = await get(`/v1/events?fromDate=${encodeURIComponent(world.since)}`);
    world.events = listed.body;
  });

  it('lists the caller’s events newest first, as envelopes carrying the resource as its GET answers it', async () => {
    expect(world.events.map((e) => e.type)).toEqual(['receivable.paid', 'receivable.created', 'receivable.created', 'receivable-account.activated']);
    const [paid] = world.events;
    expect(paid).toEqual({ id: expect.stringMatching(/^evt_[0-9A-Za-z]+$/), type: 'receivable.paid', createdAt: expect.any(String), data: expect.any(Object) });
    const receivable = await get(`/v1/receivables/${world.receivableIds[0]}`);
    expect(paid.data.receivable).toEqual(receivable.body);
    expect(world.events[3].data.receivableAccount.id).toBe(world.accountId);
    const createdAt = world.events.map((e) => Date.parse(e.createdAt));
    expect([...createdAt].sort((a, b) => b - a)).toEqual(createdAt);
  });

  it('filters by type and by a createdAt window, and pages with X-Total-Count', async () => {
    const since = encodeURIComponent(world.since);
    const created = await get(`/v1/events?type=receivable.created&fromDate=${since}&count=1&page=2`);
    expect(created.status).toBe(200);
    expect(created.headers['x-total-count']).toBe('2');
    expect(created.body.map((e: Envelope) => e.data.receivable.id)).toEqual([world.receivableIds[0]]);
    const before = await get(`/v1/events?toDate=${since}&type=receivable.paid`);
    expect(before.body.map((e: Envelope) => e.id)).not.toContain(world.events[0].id);
    const upTo = await get(`/v1/events?fromDate=${since}&toDate=${encodeURIComponent(world.events[1].createdAt)}`);
    expect(upTo.body.map((e: Envelope) => e.id)).toEqual(world.events.slice(1).map((e) => e.id));
    const later = await get(`/v1/events?fromDate=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect({ status: later.status, total: later.headers['x-total-count'], body: later.body }).toEqual({ status: 200, total: '0', body: [] });
  });

  it('walks the events by the Link of each page, one at a time, in the order of the whole list', async () => {
    let url: string | undefined = `/v1/events?fromDate=${encodeURIComponent(world.since)}&count=1`;
    const walked: string[] = [];
    while (url !== undefined) {
      const page = await get(url);
      walked.push(...page.body.map((e: Envelope) => e.id));
      url = /^<([^>]+)>; rel="next"$/.exec(page.headers.link ?? '')?.[1];
    }
    expect(walked).toEqual(world.events.map((e) => e.id));
  });

  /** The feed from `url` on, followed by its Link until a page comes back empty; the Link to go on from. */
  const followFeed = async (url: string, seen: Envelope[]) => {
    for (;;) {
      const page = await get(url);
      expect([page.status, page.headers.link]).toEqual([200, expect.stringMatching(/^<\/v1\/events\?[^>]*sort=feed[^>]*cursor=[\w-]+>; rel="next"$/)]);
      expect(page.headers.link).not.toMatch(/fromDate=/);
      seen.push(...page.body);
      url = /^<([^>]+)>/.exec(page.headers.link)![1];
      if (page.body.length === 0) return url;
    }
  };
  /**
   * The feed followed from `url` until it gave `count` events (or 10 s passed): another test's transaction, anywhere
   * on the server, may hold its horizon back for a moment. The Link to go on from.
   */
  const followUntil = async (url: string, seen: Envelope[], count: number) => {
    for (let tries = 0; seen.length < count && tries < 400; tries++) {
      url = await followFeed(url, seen);
      if (seen.length < count) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return url;
  };

  it('follows the feed (sort=feed) oldest first from fromDate, its Link always there to read what comes next', async () => {
    const seen: Envelope[] = [];
    const next = await followUntil(`/v1/events?sort=feed&count=2&fromDate=${encodeURIComponent(world.since)}`, seen, 4);
    expect(seen.map((e) => e.id)).toEqual([...world.events].reverse().map((e) => e.id));
    await ctx.api.call('patch', `/v1/receivables/${world.receivableIds[1]}/status`, { token: ctx.token, body: { status: 'PAID' } });
    const later: Envelope[] = [];
    await followUntil(next, later, 1);
    expect(later.map((e) => [e.type, e.data.receivable.id])).toEqual([['receivable.paid', world.receivableIds[1]]]);
    await ctx.api.call('patch', `/v1/receivables/${world.receivableIds[1]}/status`, { token: ctx.token, body: { status: 'PENDING' } });
  });

  // End to end only: whether a batch's transaction commits after a single creation's here depends on timing; the
  // event feed contract holds one open to prove no event is passed over.
  it('gives a follower of the feed every event once, none twice, while single creations and a batch are written', async () => {
    const since = new Date().toISOString();
    const body = (amount: string) => ({ receivableAccountId: world.accountId, amount, currencyCode: 'ARS', receivableType: 'INVOICE' });
    let writing = true;
    const writes = (async () => {
      const batch = ctx.api.call('post', '/v1/receivables/batches', {
        token: ctx.token,
        body: { items: Array.from({ length: 300 }, (_, i) => body(`${i + 1}.00`)) },
        headers: key('feed-batch'),
      });
      for (let i = 0; i < 15; i++) await ctx.api.call('post', '/v1/receivables', { token: ctx.token, body: body('7.00'), headers: key('feed-one') });
      expect((await batch).status).toBe(200);
      writing = false;
    })();
    const seen: Envelope[] = [];
    let next = `/v1/events?sort=feed&count=50&fromDate=${encodeURIComponent(since)}`;
    while (writing) next = await followFeed(next, seen);
    await writes;
    await followUntil(next, seen, 315);
    const listed = await get(`/v1/events?fromDate=${encodeURIComponent(since)}&count=1`);
    expect([seen.length, new Set(seen.map((e) => e.id)).size, listed.headers['x-total-count']]).toEqual([315, 315, '315']);
  });

  it('refuses in the feed what only the list takes (page, toDate, type), a cursor of the list or of another database server, and a cursor with fromDate', async () => {
    const listCursor = /cursor=([\w-]+)/.exec((await get('/v1/events?count=1')).headers.link)![1];
    for (const [query, name] of [
      ['page=2', 'page'],
      ['toDate=2026-01-01', 'toDate'],
      ['type=receivable.paid', 'type'],
      [`cursor=${listCursor}`, 'cursor'],
      ['cursor=bm90LWEtY3Vyc29y', 'cursor'],
      // Positions the database could not read: a transaction id past 2^64 - 1, a seq past 2^63 - 1.
      [`cursor=${Buffer.from(JSON.stringify(['feed', '1:18446744073709551616.1'])).toString('base64url')}`, 'cursor'],
      [`cursor=${Buffer.from(JSON.stringify(['feed', '1:1.9223372036854775808'])).toString('base64url')}`, 'cursor'],
    ]) {
      const res = await get(`/v1/events?sort=feed&${query}`);
      expect([query, res.status, res.body.invalidParams?.map((p: { name: string }) => p.name)]).toEqual([query, 400, [name]]);
    }
    // Given by another server (before the database was restored or moved): its transaction ids order nothing here.
    const own = /cursor=([\w-]+)/.exec((await get('/v1/events?sort=feed&count=1')).headers.link)![1];
    const [server] = (JSON.parse(Buffer.from(own, 'base64url').toString()) as [string, string])[1].split(':');
    const elsewhere = await get(`/v1/events?sort=feed&cursor=${Buffer.from(JSON.stringify(['feed', `${BigInt(server) + 1n}:1.1`])).toString('base64url')}`);
    expect([elsewhere.status, elsewhere.body.invalidParams]).toEqual([
      400,
      [{ name: 'cursor', reason: expect.stringMatching(/^was given by another database server/) }],
    ]);
    const both = await get(`/v1/events?sort=feed&fromDate=2026-01-01&cursor=${own}`);
    expect([both.status, both.body.invalidParams]).toEqual([400, [{ name: 'fromDate', reason: 'cannot be given with cursor' }]]);
    const sorted = await get('/v1/events?sort=createdAt');
    expect([sorted.status, sorted.body.invalidParams]).toEqual([400, [{ name: 'sort', reason: 'sort must be -createdAt (the default) or feed' }]]);
  });

  it('refuses an unknown type or a malformed date with 400 validation naming it', async () => {
    const type = await get('/v1/events?type=receivable.nope');
    expect(type.status).toBe(400);
    expect(type.body.invalidParams.map((p: { name: string }) => p.name)).toEqual(['type']);
    const date = await get('/v1/events?fromDate=2026-02-30');
    expect(date.body.invalidParams.map((p: { name: string }) => p.name)).toEqual(['fromDate']);
  });

  it('reads one event by id; another customer’s is 403 and an unknown id 404', async () => {
    const [paid] = world.events;
    expect((await get(`/v1/events/${paid.id}`)).body).toEqual(paid);
    const theirs = await get(`/v1/events/${paid.id}`, ctx.otherToken);
    expect({ status: theirs.status, code: theirs.body.code }).toEqual({ status: 403, code: 'resource-not-accessible' });
    const unknown = await get('/v1/events/evt_000000000000000000000000');
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 404, code: 'resource-not-found' });
  });

  it('shows another customer none of the caller’s events', async () => {
    const theirs = await get(`/v1/events?fromDate=${encodeURIComponent(world.since)}&count=200`, ctx.otherToken);
    const mine = new Set(world.events.map((e) => e.id));
    expect(theirs.body.filter((e: Envelope) => mine.has(e.id))).toEqual([]);
  });

  it('needs the webhooks:read scope', async () => {
    const customerId = (await get('/v1/me')).body.customerId;
    const token = async (scopes: string[]) => ctx.api.login(await ctx.api.app.credentials.create.execute({ customerId, scopes }));
    const without = await token(['receivables:read']);
    for (const url of ['/v1/events', `/v1/events/${world.events[0].id}`]) {
      const res = await get(url, without);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 'insufficient-scope' });
    }
    expect((await get(`/v1/events/${world.events[0].id}`, await token(['webhooks:read']))).status).toBe(200);
  });

  it('carries a receivable account as its GET answers it, stats included, when it is disabled and activated', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const body = { receivableAccountId: account.id, amount: '1234.56', currencyCode: 'ARS', receivableType: 'INVOICE' };
    await ctx.api.call('post', '/v1/receivables', { token: ctx.token, body, headers: key('evt') });
    const latest = async (type: string) => (await get(`/v1/events?type=${type}&count=1`)).body[0] as Envelope;

    await ctx.api.call('delete', `/v1/receivable-accounts/${account.id}`, { token: ctx.token });
    const disabled = (await get(`/v1/receivable-accounts/${account.id}`)).body;
    expect(disabled).toMatchObject({ status: 'DISABLED', stats: { pendingAmount: 1234.56 } });
    expect((await latest('receivable-account.disabled')).data.receivableAccount).toEqual(disabled);

    await ctx.api.call('post', `/v1/receivable-accounts/${account.id}/activations`, { token: ctx.token });
    const activated = (await get(`/v1/receivable-accounts/${account.id}`)).body;
    expect(activated.status).toBe('ACTIVE');
    expect((await latest('receivable-account.activated')).data.receivableAccount).toEqual(activated);
  });
});
