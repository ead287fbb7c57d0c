import { ALL_SCOPES, calendarDay } from '@rcs/domain';
import { useTestApi } from '../support/test-api';
import { activeAccount, key } from '../support/fixtures';

const PAYER = { name: 'Juan Pagador', taxId: '20-12345678-6' };
const DAY_MS = 24 * 60 * 60 * 1000;

describe('sandbox helpers', () => {
  const ctx = useTestApi();
  const post = (path: string, token: string, body?: object, headers?: Record<string, string>) => ctx.api.call('post', path, { token, body, headers });
  const get = async (path: string, token: string) => (await ctx.api.call('get', path, { token })).body;
  const customerOf = async (token: string): Promise<number> => (await get('/v1/me', token)).customerId;
  /** A token of the same customer as `token`, holding only `scopes`. */
  const tokenWith = async (token: string, scopes: readonly string[]) =>
    ctx.api.login(await ctx.api.app.credentials.create.execute({ customerId: await customerOf(token), scopes: [...scopes] }));
  const issue = async (token: string, receivableAccountId: number, body: object) =>
    (await post('/v1/receivables', token, { receivableAccountId, amount: 10, currencyCode: 'ARS', receivableType: 'INVOICE', ...body }, key('sbx'))).body;
  const statusOf = async (token: string, id: number) => (await get(`/v1/receivables/${id}`, token)).status;

  /** What a customer holds that every helper could move: collected money, a PAID receivable, an overdue PENDING one. */
  async function holdings(token: string, collected: number) {
    const { account } = await activeAccount(ctx.api, token);
    const paid = await issue(token, account.id, {});
    await ctx.api.call('patch', `/v1/receivables/${paid.id}/status`, { token, body: { status: 'PAID' } });
    const overdue = await issue(token, account.id, { dueDate: '2020-01-01' });
    await post('/v1/sandbox/collections', token, { receivableAccountId: account.id, amount: collected, counterParty: PAYER });
    return { account, paid, overdue };
  }

  /** Everything a run could change for the customer of `token`: balances, statuses, settlements, movements, events. */
  async function moneyOf(token: string, held: Awaited<ReturnType<typeof holdings>>) {
    const main = (await get('/v1/current-accounts?accountType=MAIN', token))[0];
    const events = await ctx.api.db
      .knex('outbox_events')
      .where({ customer_id: await customerOf(token) })
      .whereIn('type', ['receivable.settled', 'receivable.expired', 'settlement.completed']);
    return {
      balances: (await get(`/v1/current-accounts/${main.id}/balances`, token)).balanceByWallet,
      statuses: [await statusOf(token, held.paid.id), await statusOf(token, held.overdue.id)],
      settlements: await get('/v1/settlements', token),
      movements: (await get(`/v1/receivable-accounts/${held.account.id}/movements`, token)).map((m: { id: number }) => m.id),
      events: events.length,
    };
  }

  it.each([
    ['/v1/sandbox/collections', 'receivable-accounts:write'],
    ['/v1/sandbox/settlement-runs', 'receivables:write'],
    ['/v1/sandbox/expiration-runs', 'receivables:write'],
  ])('refuses %s to a token holding every scope but %s with 403 insufficient-scope', async (path, scope) => {
    const token = await tokenWith(
      ctx.otherToken,
      ALL_SCOPES.filter((s) => s !== scope),
    );
    const res = await post(path, token, {});
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'insufficient-scope', requiredScope: scope });
  });

  it("runs every helper as customer 2 without moving or reporting customer 1's money or receivables", async () => {
    const firsts = await holdings(ctx.token, 25);
    const seconds = await holdings(ctx.otherToken, 7.5);
    const before = await moneyOf(ctx.token, firsts);
    const token = await tokenWith(ctx.otherToken, ['receivable-accounts:write', 'receivables:write']);

    const intoFirsts = await post('/v1/sandbox/collections', token, { receivableAccountId: firsts.account.id, amount: 1, counterParty: PAYER });
    expect(intoFirsts.status).toBe(403);
    expect(intoFirsts.body.code).toBe('resource-not-accessible');
    expect((await post('/v1/sandbox/collections', token, { receivableAccountId: seconds.account.id, amount: 2.5, counterParty: PAYER })).status).toBe(201);
    const settled = await post('/v1/sandbox/settlement-runs', token);
    expect(settled.status).toBe(201);
    expect(settled.body).toEqual({ settlements: 1, settledReceivables: 1, settledAmount: 10 });
    const expired = await post('/v1/sandbox/expiration-runs', token, {});
    expect(expired.status).toBe(201);
    expect(expired.body).toEqual({ expiredReceivables: 1 });

    expect(await moneyOf(ctx.token, firsts)).toEqual(before);
    expect((await moneyOf(ctx.otherToken, seconds)).statuses).toEqual(['SETTLED', 'EXPIRED']);
  });

  describe('settlement runs', () => {
    it.each([[[]], [null], ['now'], [5]])('answers a body of %p with 400 validation and settles nothing', async (body) => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      await post('/v1/sandbox/collections', ctx.token, { receivableAccountId: account.id, amount: 3, counterParty: PAYER });
      const res = await ctx.api.call('post', '/v1/sandbox/settlement-runs', {
        token: ctx.token,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(400);
      expect(res.body.invalidParams).toEqual([{ name: 'body', reason: 'must be a JSON object (Content-Type: application/json)' }]);
      expect(await get(`/v1/settlements?receivableAccountId=${account.id}`, ctx.token)).toEqual([]);
    });

    it('answers a run repeated under its Idempotency-Key with the first answer and settles nothing more', async () => {
      const token = ctx.otherToken;
      const headers = key('settlement-run');
      await post('/v1/sandbox/settlement-runs', token);
      await holdings(token, 4);
      const first = await post('/v1/sandbox/settlement-runs', token, undefined, headers);
      expect(first.body).toMatchObject({ settledReceivables: 1 });
      const later = await holdings(token, 4);
      const again = await post('/v1/sandbox/settlement-runs', token, undefined, headers);
      expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([201, 'true', first.body]);
      expect(await statusOf(token, later.paid.id)).toBe('PAID');
      expect((await post('/v1/sandbox/settlement-runs', token)).body).toMatchObject({ settledReceivables: 1 });
    });

    it('ignores members of its body, as every operation ignores unknown ones', async () => {
      const res = await post('/v1/sandbox/settlement-runs', ctx.token, { date: 'x' });
      expect(res.status).toBe(201);
    });
  });

  describe('expiration runs', () => {
    it("expires the caller's PENDING receivables due before `date` and answers how many", async () => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      const overdue = await issue(ctx.token, account.id, { dueDate: '2001-03-01' });
      const res = await post('/v1/sandbox/expiration-runs', ctx.token, { date: '2001-06-01' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ expiredReceivables: 1 });
      expect(await statusOf(ctx.token, overdue.id)).toBe('EXPIRED');
    });

    it('writes one receivable.expired event for each receivable it expires, as the daily job does', async () => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      const overdue = [await issue(ctx.token, account.id, { dueDate: '2003-01-10' }), await issue(ctx.token, account.id, { dueDate: '2003-01-20' })];
      await post('/v1/sandbox/expiration-runs', ctx.token, { date: '2003-02-01' });
      const events = await ctx.api.db.knex('outbox_events').where({ type: 'receivable.expired' });
      for (const { id } of overdue) {
        expect(events.filter((e) => e.data.receivable.id === id).map((e) => e.data.receivable.status)).toEqual(['EXPIRED']);
      }
    });

    it("leaves receivables due on `date` or later, PAID ones and other customers' receivables as they were; a child past due expires too", async () => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      const onTheDay = await issue(ctx.token, account.id, { dueDate: '2004-06-01' });
      const paid = await issue(ctx.token, account.id, { dueDate: '2004-01-01' });
      await ctx.api.call('patch', `/v1/receivables/${paid.id}/status`, { token: ctx.token, body: { status: 'PAID' } });
      const parent = await issue(ctx.token, account.id, { dueDate: '2004-01-01' });
      const child = await issue(ctx.token, account.id, { receivableType: 'CREDIT_NOTE', amount: 1, parentReceivableId: parent.id, dueDate: '2004-01-01' });
      const theirs = await issue(ctx.otherToken, (await activeAccount(ctx.api, ctx.otherToken)).account.id, { dueDate: '2004-01-01' });
      await post('/v1/sandbox/expiration-runs', ctx.token, { date: '2004-06-01' });
      expect([await statusOf(ctx.token, onTheDay.id), await statusOf(ctx.token, paid.id), await statusOf(ctx.token, child.id)]).toEqual([
        'PENDING',
        'PAID',
        'EXPIRED',
      ]);
      expect(await statusOf(ctx.otherToken, theirs.id)).toBe('PENDING');
    });

    it('runs as of today in Buenos Aires when the request has no body', async () => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      const yesterday = await issue(ctx.token, account.id, { dueDate: calendarDay(new Date(Date.now() - DAY_MS)) });
      const dueToday = await issue(ctx.token, account.id, { dueDate: calendarDay(new Date()) });
      expect((await post('/v1/sandbox/expiration-runs', ctx.token)).status).toBe(201);
      expect(await statusOf(ctx.token, yesterday.id)).toBe('EXPIRED');
      expect(await statusOf(ctx.token, dueToday.id)).toBe('PENDING');
    });

    it.each(['2026-02-30', '01/02/2026', '0000-01-01', 20260101])('answers date %p with 400 validation naming date', async (date) => {
      const res = await post('/v1/sandbox/expiration-runs', ctx.token, { date });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation', invalidParams: [{ name: 'date' }] });
    });

    it('commits batch by batch under an Idempotency-Key, as without one: a run failing part-way keeps what it expired, and its retry under the key does the rest', async () => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      // A run's batches are of 500: the last of these is due after the others, so it is in a later batch.
      const items = Array.from({ length: 501 }, (_, i) => ({
        receivableAccountId: account.id,
        amount: 1,
        currencyCode: 'ARS',
        receivableType: 'INVOICE',
        dueDate: i === 500 ? '2006-01-02' : '2006-01-01',
      }));
      const batch = await post('/v1/receivables/batches', ctx.token, { items }, key('expiry-batch'));
      const ids = (batch.body.results as Array<{ receivable: { id: number } }>).map((result) => result.receivable.id);
      const knex = ctx.api.db.knex;
      const pendingOf = async () => Number((await knex('receivables').whereIn('id', ids).where({ status: 'PENDING' }).count({ n: '*' }))[0].n);
      await knex.raw(`CREATE FUNCTION refuse_test_expiry() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.status = 'EXPIRED' AND NEW.id = ${ids[500]} THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`);
      await knex.raw('CREATE TRIGGER refuse_test_expiry BEFORE UPDATE ON receivables FOR EACH ROW EXECUTE FUNCTION refuse_test_expiry()');
      const headers = key('expiry-part-way');
      try {
        expect((await post('/v1/sandbox/expiration-runs', ctx.token, { date: '2006-06-01' }, headers)).status).toBe(500);
      } finally {
        await knex.raw('DROP TRIGGER refuse_test_expiry ON receivables');
        await knex.raw('DROP FUNCTION refuse_test_expiry()');
      }
      const left = await pendingOf();
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThan(501);
      const retry = await post('/v1/sandbox/expiration-runs', ctx.token, { date: '2006-06-01' }, headers);
      // The earlier receivables this customer left due were in the first batch, which stood.
      expect([retry.status, retry.body.expiredReceivables, await pendingOf()]).toEqual([201, left, 0]);
    });

    it('answers a repeated Idempotency-Key with the first answer and expires nothing more', async () => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      await issue(ctx.token, account.id, { dueDate: '2005-01-01' });
      const headers = key('expiry');
      const first = await post('/v1/sandbox/expiration-runs', ctx.token, { date: '2005-06-01' }, headers);
      const later = await issue(ctx.token, account.id, { dueDate: '2005-02-01' });
      const again = await post('/v1/sandbox/expiration-runs', ctx.token, { date: '2005-06-01' }, headers);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(await statusOf(ctx.token, later.id)).toBe('PENDING');
    });
  });
});
