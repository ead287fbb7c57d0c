import request from 'supertest';
import { startTestApi, useTestApi } from '../support/test-api';
import { activeAccount, key, parties } from '../support/fixtures';

const PAYER = { name: 'Juan Pagador', taxId: '20-12345678-6' };

describe('collections, settlement, current accounts', () => {
  const ctx = useTestApi();
  const collect = (body: object, token = ctx.token) => ctx.api.call('post', '/v1/sandbox/collections', { token, body: { counterParty: PAYER, ...body } });
  const settle = () => ctx.api.call('post', '/v1/sandbox/settlement-runs', { token: ctx.token });
  const mainAccount = async (token = ctx.token) => (await ctx.api.call('get', '/v1/current-accounts?accountType=MAIN', { token })).body[0];
  const balance = async (id: number) => (await ctx.api.call('get', `/v1/current-accounts/${id}/balances`, { token: ctx.token })).body;

  it('follows the money: collection, PAID, settlement, SETTLED, balance, to the cent', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const main = await mainAccount();
    const before = (await balance(main.id)).balanceByWallet.CVU;
    const invoice = (
      await ctx.api.call('post', '/v1/receivables', {
        token: ctx.token,
        headers: key('m'),
        body: { receivableAccountId: account.id, amount: '1000.10', currencyCode: 'ARS', receivableType: 'INVOICE' },
      })
    ).body;
    const retention = (
      await ctx.api.call('post', '/v1/receivables', {
        token: ctx.token,
        headers: key('m'),
        body: { receivableAccountId: account.id, amount: '30.05', currencyCode: 'ARS', receivableType: 'RETENTION', parentReceivableId: invoice.id },
      })
    ).body;

    const movement = await collect({ receivableAccountId: account.id, amount: '970.05' });
    expect(movement.status).toBe(201);
    expect(movement.body).toMatchObject({
      receivableAccountId: account.id,
      movementType: 'CREDIT',
      operationType: 'DEPOSIT',
      amount: 970.05,
      counterParty: { name: 'Juan Pagador', taxId: '20123456786' },
    });
    const created = await ctx.api.db.knex('outbox_events').where({ type: 'movement.created' });
    expect(created.map((e) => e.data.movement)).toContainEqual(
      expect.objectContaining({ id: movement.body.id, receivableAccountId: account.id, movementType: 'CREDIT', operationType: 'DEPOSIT', amount: 970.05 }),
    );
    expect((await ctx.api.call('get', `/v1/receivables/${invoice.id}`, { token: ctx.token })).body.status).toBe('PENDING');

    await ctx.api.call('patch', `/v1/receivables/${invoice.id}/status`, { token: ctx.token, body: { status: 'PAID' } });
    const run = await settle();
    expect(run.status).toBe(201);
    expect(run.body).toMatchObject({ settlements: 1, settledReceivables: 2, settledAmount: 970.05 });
    for (const id of [invoice.id, retention.id]) expect((await ctx.api.call('get', `/v1/receivables/${id}`, { token: ctx.token })).body.status).toBe('SETTLED');
    const after = await balance(main.id);
    expect(after).toMatchObject({ currentAccountId: main.id, currencyCode: 'ARS', balanceByWallet: { CASH: 0, CVU_TAX: 0 } });
    expect(Math.round((after.balanceByWallet.CVU - before) * 100)).toBe(97005);
    expect(after.totalBalance).toBe(after.balanceByWallet.CVU);
    expect((await ctx.api.call('get', `/v1/current-accounts/${main.id}`, { token: ctx.token })).body.lastSettlementDate).not.toBeNull();

    const settlements = await ctx.api.call('get', `/v1/settlements?receivableAccountId=${account.id}`, { token: ctx.token });
    expect(settlements.body).toHaveLength(1);
    expect(settlements.body[0]).toMatchObject({ amount: 970.05, currentAccountId: main.id, receivablesCount: 2, receivableIds: [invoice.id, retention.id] });
    expect((await ctx.api.call('get', `/v1/settlements/${settlements.body[0].id}`, { token: ctx.token })).body.id).toBe(settlements.body[0].id);
    const out = await ctx.api.call('get', `/v1/receivable-accounts/${account.id}/movements`, { token: ctx.token });
    expect(out.body.map((m: { subtype: string | null; movementType: string }) => [m.movementType, m.subtype])).toEqual([
      ['DEBIT', 'SETTLEMENT_OUT'],
      ['CREDIT', null],
    ]);
    const into = await ctx.api.call('get', `/v1/current-accounts/${main.id}/movements?operationType=SETTLEMENT`, { token: ctx.token });
    expect(into.body[0]).toMatchObject({ currentAccountId: main.id, movementType: 'CREDIT', subtype: 'SETTLEMENT_IN', amount: 970.05 });
    const events = await ctx.api.db.knex('outbox_events').whereIn('type', ['receivable.settled', 'settlement.completed']);
    const settledIds = events.filter((e) => e.type === 'receivable.settled').map((e) => e.data.receivable.id);
    expect(settledIds.filter((id) => [invoice.id, retention.id].includes(id)).sort()).toEqual([invoice.id, retention.id].sort());
    expect(events.filter((e) => e.type === 'settlement.completed' && e.data.settlement.id === settlements.body[0].id)).toHaveLength(1);

    const again = await settle();
    expect(again.body).toEqual({ settlements: 0, settledReceivables: 0, settledAmount: 0 });
    expect((await balance(main.id)).balanceByWallet.CVU).toBe(after.balanceByWallet.CVU);
  });

  describe('sums past the 15 digits a JSON number holds as a double', () => {
    const MAX = '9999999999999.99';
    /** Nine times MAX: a double rounds it to 89999999999999.9, so only the JSON text can carry it exactly. */
    const NINE_TIMES = '89999999999999.91';
    const member = (name: string) => new RegExp(`"${name}":${NINE_TIMES.replace('.', '\\.')}[,}]`);
    let token: string;
    let account: number;
    let webhookId: number;
    beforeAll(async () => {
      const customer = await ctx.api.app.customers.create.execute({ name: `Big Sums ${process.pid}` });
      token = await ctx.api.login(customer);
      account = (await activeAccount(ctx.api, token)).account.id;
      const events = ['settlement.completed', 'movement.created'] as const;
      webhookId = (await ctx.api.app.webhooks.register.execute({ customerId: customer.customer.id, url: 'https://127.0.0.1/hooks', events: [...events] }))
        .webhook.id;
    });

    it('writes balances, settlements and their movements with every digit', async () => {
      for (let i = 0; i < 9; i++) expect((await collect({ receivableAccountId: account, amount: MAX }, token)).status).toBe(201);
      const run = await ctx.api.call('post', '/v1/sandbox/settlement-runs', { token });
      expect(run.text).toMatch(member('settledAmount'));
      const main = await mainAccount(token);
      const balances = await ctx.api.call('get', `/v1/current-accounts/${main.id}/balances`, { token });
      expect(balances.text).toMatch(member('totalBalance'));
      expect(balances.text).toMatch(member('CVU'));
      const settlements = await ctx.api.call('get', `/v1/settlements?receivableAccountId=${account}`, { token });
      expect(settlements.text).toMatch(member('amount'));
      const settlement = await ctx.api.call('get', `/v1/settlements/${settlements.body[0].id}`, { token });
      expect(settlement.text).toMatch(member('amount'));
      const movements = await ctx.api.call('get', `/v1/current-accounts/${main.id}/movements?count=1`, { token });
      expect(movements.text).toMatch(member('amount'));
      // The same digits in the events, read back through /v1/events and sent in webhook deliveries.
      for (const type of ['settlement.completed', 'movement.created']) {
        expect((await ctx.api.call('get', `/v1/events?type=${type}&count=1`, { token })).text).toMatch(member('amount'));
      }
      while ((await ctx.api.app.webhooks.dispatch.execute({})) > 0);
      const payloads: string[] = await ctx.api.db.knex('webhook_deliveries').where({ webhook_id: webhookId }).pluck('payload');
      // The settlement, and its two movements: out of the receivable account and into MAIN.
      const types = payloads.filter((payload) => member('amount').test(payload)).map((payload) => /"type":"([a-z.]+)"/.exec(payload)?.[1]);
      expect(types.sort()).toEqual(['movement.created', 'movement.created', 'settlement.completed']);
    });

    it('keeps collecting and settling past the largest 64-bit integer, digit for digit, the ledger balanced', async () => {
      const { customer, ...credentials } = await ctx.api.app.customers.create.execute({ name: `Past 64 bits ${process.pid}` });
      const own = await ctx.api.login(credentials);
      const { id } = (await activeAccount(ctx.api, own)).account;
      // 9,223 collections of MAX would take minutes: one movement brings the account to the balance they would give.
      const near = 9223372036854775000n;
      await ctx.api.db.knex.raw(
        `WITH moved AS (
           INSERT INTO movements (customer_id, account_id, account_kind, movement_type, operation_type, amount_minor, currency_code, movement_date)
           VALUES (?, ?, 'RECEIVABLE', 'CREDIT', 'DEPOSIT', ?, 'ARS', now()) RETURNING amount_minor
         )
         UPDATE receivable_accounts SET balance_minor = balance_minor + (SELECT amount_minor FROM moved) WHERE id = ?`,
        [customer.id, id, near.toString(), id],
      );
      expect((await collect({ receivableAccountId: id, amount: MAX }, own)).status).toBe(201);
      const sum = '92243720368547749.99';
      const digits = (name: string) => new RegExp(`"${name}":${sum.replace('.', '\\.')}[,}]`);
      expect((await ctx.api.call('post', '/v1/sandbox/settlement-runs', { token: own })).text).toMatch(digits('settledAmount'));
      const main = await mainAccount(own);
      expect((await ctx.api.call('get', `/v1/current-accounts/${main.id}/balances`, { token: own })).text).toMatch(digits('totalBalance'));
      expect((await ctx.api.call('get', `/v1/current-accounts/${main.id}/movements?count=1`, { token: own })).text).toMatch(digits('amount'));
      expect(await ctx.api.app.ledger.verify.execute()).toEqual([]);
    });

    it("writes an account's pending amount with every digit", async () => {
      for (let i = 0; i < 9; i++) {
        const res = await ctx.api.call('post', '/v1/receivables', {
          token,
          headers: key('big'),
          body: { receivableAccountId: account, amount: MAX, currencyCode: 'ARS', receivableType: 'DEBT' },
        });
        expect(res.status).toBe(201);
      }
      const res = await ctx.api.call('get', `/v1/receivable-accounts/${account}`, { token });
      expect(res.text).toMatch(member('pendingAmount'));
    });

    it('replays such an answer under its Idempotency-Key with the same digits, from the database too', async () => {
      const headers = { 'Idempotency-Key': `big-${process.pid}` };
      const first = await ctx.api.call('put', `/v1/receivable-accounts/${account}`, { token, headers, body: {} });
      // Another instance has none of the first one's answers in memory: it replays the stored one.
      const replay = await request(ctx.api.otherInstance())
        .put(`/v1/receivable-accounts/${account}`)
        .set('Authorization', `Bearer ${token}`)
        .set(headers)
        .send({});
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.text).toBe(first.text);
      expect(replay.text).toMatch(member('pendingAmount'));
    });
  });

  it('leaves PAID receivables waiting when no money arrived, and settles them with the next collection', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const invoice = (
      await ctx.api.call('post', '/v1/receivables', {
        token: ctx.token,
        headers: key('w'),
        body: { receivableAccountId: account.id, amount: 5, currencyCode: 'ARS', receivableType: 'INVOICE' },
      })
    ).body;
    await ctx.api.call('patch', `/v1/receivables/${invoice.id}/status`, { token: ctx.token, body: { status: 'PAID' } });
    await settle();
    expect((await ctx.api.call('get', `/v1/receivables/${invoice.id}`, { token: ctx.token })).body.status).toBe('PAID');
    await collect({ receivableAccountId: account.id, amount: 5 });
    await settle();
    expect((await ctx.api.call('get', `/v1/receivables/${invoice.id}`, { token: ctx.token })).body.status).toBe('SETTLED');
  });

  it('refuses collections on accounts that cannot receive them', async () => {
    const { client } = await parties(ctx.api, ctx.token);
    const provisioning = (await ctx.api.call('post', '/v1/receivable-accounts', { token: ctx.token, body: { clientId: client.id }, headers: key('c') })).body;
    expect((await collect({ receivableAccountId: provisioning.id, amount: 1 })).body.code).toBe('receivable-account-not-active');
    const { account } = await activeAccount(ctx.api, ctx.token);
    expect((await collect({ receivableAccountId: account.id, amount: 1, currencyCode: 'USD' })).body.code).toBe('unmatching-movement-currency-code');
    expect((await collect({ receivableAccountId: (await mainAccount()).id, amount: 1 })).body.code).toBe('current-account-not-receivable-enabled');
    // One id names one account of either kind: another customer's current account is theirs (403), not unknown.
    expect((await collect({ receivableAccountId: (await mainAccount()).id, amount: 1 }, ctx.otherToken)).body.code).toBe('resource-not-accessible');
    expect((await collect({ receivableAccountId: account.id, amount: 1 }, ctx.otherToken)).status).toBe(403);
    expect((await collect({ receivableAccountId: account.id, amount: 0.001 })).status).toBe(400);
    const blank = await collect({ receivableAccountId: account.id, amount: 1, counterParty: { name: '   ', taxId: '20123456786' } });
    expect([blank.status, blank.body.invalidParams]).toEqual([400, [{ name: 'counterParty.name', reason: 'must not be blank' }]]);
    const padded = await collect({ receivableAccountId: account.id, amount: 1, counterParty: { name: '  Ana Gomez  ', taxId: '20123456786' } });
    expect(padded.body.counterParty.name).toBe('Ana Gomez');
    expect((await collect({ receivableAccountId: account.id, amount: 1, counterParty: { name: 'X', taxId: '123' } })).body.invalidParams[0].name).toBe(
      'counterParty.taxId',
    );
  });

  it('lists current accounts read-only and keeps them to their customer', async () => {
    const list = await ctx.api.call('get', '/v1/current-accounts', { token: ctx.token });
    expect(list.body.map((a: { accountType: string }) => a.accountType).sort()).toEqual(['MAIN', 'SUB']);
    const theirs = await mainAccount(ctx.otherToken);
    expect((await ctx.api.call('get', `/v1/current-accounts/${theirs.id}`, { token: ctx.token })).status).toBe(403);
    expect((await ctx.api.call('get', `/v1/current-accounts/${theirs.id}/movements`, { token: ctx.token })).status).toBe(403);
    expect((await ctx.api.call('get', '/v1/current-accounts?accountType=OTHER', { token: ctx.token })).status).toBe(400);
  });

  it('filters current accounts by creation date, toDate inclusive, as every list does', async () => {
    const listed = async (query: string) => {
      const res = await ctx.api.call('get', `/v1/current-accounts?${query}`, { token: ctx.token });
      return [res.body.map((a: { accountType: string }) => a.accountType).sort(), res.headers['x-total-count']];
    };
    const { creationDate } = await mainAccount();
    // Its calendar day in Buenos Aires (UTC-3), where a date filter's days are.
    const day = new Date(Date.parse(creationDate) - 3 * 3_600_000).toISOString().slice(0, 10);
    expect(await listed(`fromDate=${day}&toDate=${day}`)).toEqual([['MAIN', 'SUB'], '2']);
    expect(await listed('fromDate=2999-01-01')).toEqual([[], '0']);
    expect(await listed('toDate=2000-01-01')).toEqual([[], '0']);
  });
});

describe('sandbox helpers in production mode', () => {
  it('answer 404, even to a valid token, and neither the sandbox page nor the reference lists them', async () => {
    const api = await startTestApi({ APP_MODE: 'production', DATABASE_URL: 'postgres://unused', BANK_PROVIDER_URL: 'http://127.0.0.1:9' });
    try {
      const { clientId, clientSecret } = await api.app.customers.create.execute({ name: `Production ${Date.now()}` });
      const token = await api.login({ clientId, clientSecret });
      for (const path of ['/v1/sandbox/collections', '/v1/sandbox/settlement-runs', '/v1/sandbox/expiration-runs']) {
        const res = await request(api.http).post(path).set('Authorization', `Bearer ${token}`).send({});
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('resource-not-found');
      }
      for (const path of ['/sandbox', '/sandbox/panel.js']) expect((await request(api.http).get(path)).status).toBe(404);
      // Its reference lists no path it answers 404 on.
      const document = (await request(api.http).get('/v1/openapi.json')).body;
      const paths = Object.keys(document.paths);
      expect([paths.filter((path) => path.startsWith('/v1/sandbox/')), document.tags.map((tag: { name: string }) => tag.name)]).toEqual([
        [],
        expect.not.arrayContaining(['Sandbox']),
      ]);
      expect(paths).toEqual(expect.arrayContaining(['/v1/receivables', '/bank/notifications/incoming-transfers']));
    } finally {
      await api.close();
    }
  });
});
