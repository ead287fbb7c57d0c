import { A_CBU } from '@rcs/domain/testing';
import { activeAccount, key } from '../support/fixtures';
import { useTestApi } from '../support/test-api';
import { currentAccountsOf, dayFromToday, outgoing, postTransfer, PROVEEDOR } from '../support/transfer-fixtures';

describe('POST, GET /v1/transfers', () => {
  const ctx = useTestApi();
  const accounts = {} as Awaited<ReturnType<typeof currentAccountsOf>>;
  beforeAll(async () => {
    Object.assign(accounts, await currentAccountsOf(ctx.api, ctx.token));
  });
  const post = (body: unknown) => postTransfer(ctx.api, ctx.token, body);

  it('creates an outgoing transfer by CBU, PENDING, without checking the balance, and reads it back', async () => {
    const res = await post(outgoing(accounts.main.id, { description: 'Pago factura 12', externalId: 'ERP-1' }));
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/v1/transfers/${res.body.id}`);
    expect(res.body).toMatchObject({
      type: 'OUTGOING_TRANSFER',
      status: 'PENDING',
      sourceAccountId: accounts.main.id,
      amount: 1500.25,
      currencyCode: 'ARS',
      destination: { cbuCvu: A_CBU, alias: null, accountId: null, counterParty: PROVEEDOR },
      contactId: null,
      description: 'Pago factura 12',
      externalId: 'ERP-1',
      scheduledDate: null,
      executionDate: null,
      failureReason: null,
    });
    expect((await ctx.api.call('get', `/v1/transfers/${res.body.id}`, { token: ctx.token })).body).toEqual(res.body);
  });

  it('pays an alias, resolved at the provider when created (the answer shows its CBU/CVU), keeping the counterparty’s tax id canonical', async () => {
    const taxId = PROVEEDOR.taxId;
    const res = await post(
      outgoing(accounts.main.id, {
        destination: { alias: 'Proveedor.Alias', counterParty: { name: 'Proveedor SA', taxId: `${taxId.slice(0, 2)}-${taxId.slice(2)}` } },
      }),
    );
    expect(res.status).toBe(201);
    const { cbuCvu } = (await ctx.api.call('post', '/v1/contacts', { token: ctx.token, body: { name: 'Proveedor SA', taxId, alias: 'Proveedor.Alias' } })).body;
    expect(res.body.destination).toEqual({ cbuCvu, alias: 'Proveedor.Alias', accountId: null, counterParty: PROVEEDOR });
  });

  // A provider too slow is 504 the same way (the recipients' tests, whose provider timeout is shorter than its hang).
  it.each([
    ['a provider that is down: the key left free for the retry', 'sim-down.2', 502, 'external-provider-unavailable', 201],
    ['an alias no account has: a business refusal, kept under the key like any other', 'sim-unknown.2', 404, 'resource-not-found', 409],
  ])('refuses an alias-only transfer meeting %s, storing nothing', async (_, alias, status, code, sameKeyOtherBody) => {
    const headers = key(`alias-${alias}`);
    const before = await ctx.api.db.knex('transfers').count({ n: '*' });
    const body = outgoing(accounts.main.id, { destination: { alias, counterParty: PROVEEDOR } });
    const res = await ctx.api.call('post', '/v1/transfers', { token: ctx.token, body, headers });
    expect([res.status, res.body.code]).toEqual([status, code]);
    expect(await ctx.api.db.knex('transfers').count({ n: '*' })).toEqual(before);
    const fixed = outgoing(accounts.main.id, { destination: { cbuCvu: A_CBU, counterParty: PROVEEDOR } });
    expect((await ctx.api.call('post', '/v1/transfers', { token: ctx.token, body: fixed, headers })).status).toBe(sameKeyOtherBody);
  });

  it('refuses a malformed destination with 400 before asking the provider about its alias', async () => {
    const res = await post(outgoing(accounts.main.id, { destination: { alias: 'sim-down.3', counterParty: { name: 'X', taxId: '123' } } }));
    expect([res.status, res.body.invalidParams]).toEqual([400, [{ name: 'destination.counterParty.taxId', reason: expect.any(String) }]]);
  });

  it('pays a CBU/CVU named with the alias of the same account, and refuses an alias of another account (400 on destination.alias), storing nothing', async () => {
    const alias = 'Proveedor.Pagos';
    const { cbuCvu } = (await ctx.api.call('post', '/v1/contacts', { token: ctx.token, body: { name: 'Proveedor SA', taxId: PROVEEDOR.taxId, alias } })).body;
    expect(cbuCvu).toMatch(/^\d{22}$/);
    const named = (destination: object) => outgoing(accounts.main.id, { destination: { ...destination, counterParty: PROVEEDOR } });
    expect((await post(named({ cbuCvu, alias }))).status).toBe(201);
    const before = await ctx.api.db.knex('transfers').count({ n: '*' });
    const mismatch = await post(named({ cbuCvu: A_CBU, alias }));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.invalidParams).toEqual([{ name: 'destination.alias', reason: expect.stringMatching(/another account/) }]);
    expect(await ctx.api.db.knex('transfers').count({ n: '*' })).toEqual(before);
  });

  it('answers 502 when the provider cannot check a CBU/CVU named with an alias, storing nothing, the key left free', async () => {
    const headers = key('provider-down');
    const body = outgoing(accounts.main.id, { destination: { cbuCvu: A_CBU, alias: 'sim-down.1', counterParty: PROVEEDOR } });
    const before = await ctx.api.db.knex('transfers').count({ n: '*' });
    const res = await ctx.api.call('post', '/v1/transfers', { token: ctx.token, body, headers });
    expect([res.status, res.body.code]).toEqual([502, 'external-provider-unavailable']);
    expect(await ctx.api.db.knex('transfers').count({ n: '*' })).toEqual(before);
    const fixed = outgoing(accounts.main.id, { destination: { cbuCvu: A_CBU, counterParty: PROVEEDOR } });
    expect((await ctx.api.call('post', '/v1/transfers', { token: ctx.token, body: fixed, headers })).status).not.toBe(409);
  });

  it('moves money between its own MAIN and SUB, the answer naming the destination’s CVU and alias', async () => {
    const res = await post({
      type: 'INTERNAL_TRANSFER',
      sourceAccountId: accounts.main.id,
      amount: 10,
      currencyCode: 'ARS',
      destination: { accountId: accounts.sub.id },
    });
    expect(res.status).toBe(201);
    expect(res.body.destination).toEqual({ cbuCvu: accounts.sub.cvu, alias: accounts.sub.alias, accountId: accounts.sub.id, counterParty: null });
  });

  it('schedules a transfer given a scheduledDate, today included (SPEC), which can then be cancelled; without one it is PENDING', async () => {
    const tomorrow = dayFromToday(1);
    expect((await post(outgoing(accounts.main.id, { scheduledDate: tomorrow }))).body).toMatchObject({ status: 'SCHEDULED', scheduledDate: tomorrow });
    const today = (await post(outgoing(accounts.main.id, { scheduledDate: dayFromToday(0) }))).body;
    expect(today.status).toBe('SCHEDULED');
    const cancelled = await ctx.api.call('post', `/v1/transfers/${today.id}/cancellations`, { token: ctx.token });
    expect(cancelled.body.status).toBe('CANCELLED');
    expect((await post(outgoing(accounts.main.id))).body.status).toBe('PENDING');
  });

  it('replays a repeated creation under the same key instead of creating a second transfer', async () => {
    const headers = key('same');
    const body = outgoing(accounts.sub.id, { externalId: 'ERP-REPLAY' });
    const first = await ctx.api.call('post', '/v1/transfers', { token: ctx.token, body, headers });
    const again = await ctx.api.call('post', '/v1/transfers', { token: ctx.token, body, headers });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await ctx.api.call('get', '/v1/transfers?externalId=ERP-REPLAY', { token: ctx.token })).headers['x-total-count']).toBe('1');
  });

  it('refuses an amount written with more digits than a double holds (400), instead of paying the rounded one', async () => {
    const json = JSON.stringify(outgoing(accounts.main.id, { externalId: 'ROUNDED' })).replace(/"amount":[^,]+/, '"amount":1.0000000000000001');
    const headers = { 'content-type': 'application/json', ...key() };
    const res = await ctx.api.call('post', '/v1/transfers', { token: ctx.token, headers, body: json });
    expect(res.body).toMatchObject({
      status: 400,
      code: 'validation',
      invalidParams: [{ name: 'amount', reason: expect.stringContaining('1.0000000000000001') }],
    });
    expect((await ctx.api.call('get', '/v1/transfers?externalId=ROUNDED', { token: ctx.token })).headers['x-total-count']).toBe('0');
  });

  it.each([' ERP-7', 'ERP-7 ', 'ERP\u200b7', 'Ope\u0301racio\u0301n'])(
    'refuses the externalId %j with 400 validation: the list filter finds an externalId character for character',
    async (externalId) => {
      const res = await post(outgoing(accounts.main.id, { externalId }));
      expect([res.status, res.body.invalidParams?.[0]?.name]).toEqual([400, 'externalId']);
    },
  );

  it('creates a transfer sent without an Idempotency-Key (SPEC: should, not must), a second one when sent again', async () => {
    const body = outgoing(accounts.main.id, { externalId: 'ERP-NO-KEY' });
    const answers = [];
    for (let n = 0; n < 2; n++) answers.push(await ctx.api.call('post', '/v1/transfers', { token: ctx.token, body }));
    expect(answers.map((res) => [res.status, res.headers['idempotent-replayed']])).toEqual([
      [201, undefined],
      [201, undefined],
    ]);
    expect(answers[1].body.id).not.toBe(answers[0].body.id);
    const listed = await ctx.api.call('get', '/v1/transfers?externalId=ERP-NO-KEY', { token: ctx.token });
    expect(listed.body.map((transfer: { id: number }) => transfer.id).sort()).toEqual([answers[0].body.id, answers[1].body.id].sort());
  });

  it.each([
    [
      'a CBU with a wrong check digit',
      { destination: { cbuCvu: A_CBU.slice(0, 21) + String((Number(A_CBU[21]) + 1) % 10), counterParty: PROVEEDOR } },
      'destination.cbuCvu',
    ],
    ['an alias of 5 characters', { destination: { alias: 'pagos', counterParty: PROVEEDOR } }, 'destination.alias'],
    ['no destination', { destination: undefined }, 'destination'],
    ['no counterParty', { destination: { cbuCvu: A_CBU } }, 'destination.counterParty'],
    [
      'a counterParty with a bad tax id',
      { destination: { cbuCvu: A_CBU, counterParty: { name: 'X', taxId: '30712345679' } } },
      'destination.counterParty.taxId',
    ],
    ['an amount of 0', { amount: 0 }, 'amount'],
    ['an amount with 3 decimals', { amount: '1.005' }, 'amount'],
    ['an unknown type', { type: 'WIRE' }, 'type'],
    ['a scheduledDate already past', { scheduledDate: dayFromToday(-1) }, 'scheduledDate'],
    ['a day that does not exist', { scheduledDate: '2026-02-30' }, 'scheduledDate'],
    ['a currency not in the form of an ISO 4217 code', { currencyCode: 'ARSS' }, 'currencyCode'],
  ])('refuses %s as 400 validation, storing nothing', async (_case, overrides, name) => {
    const before = await ctx.api.db.knex('transfers').count({ n: '*' });
    const res = await post(outgoing(accounts.main.id, overrides));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation', invalidParams: [expect.objectContaining({ name })] });
    expect(await ctx.api.db.knex('transfers').count({ n: '*' })).toEqual(before);
  });

  it('refuses an internal transfer naming a CBU as 400 validation', async () => {
    const res = await post({ ...outgoing(accounts.main.id), type: 'INTERNAL_TRANSFER', destination: { accountId: accounts.sub.id, cbuCvu: A_CBU } });
    expect(res.body).toMatchObject({ code: 'validation', invalidParams: [{ name: 'destination.cbuCvu' }] });
  });

  it('refuses another currency than the source account’s as 422 unmatching-transfer-currency-code', async () => {
    const res = await post(outgoing(accounts.main.id, { currencyCode: 'USD' }));
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('unmatching-transfer-currency-code');
  });

  it.each([
    ['its own id', (a: typeof accounts) => ({ type: 'INTERNAL_TRANSFER', destination: { accountId: a.main.id } })],
    ['its own CVU', (a: typeof accounts) => ({ destination: { cbuCvu: a.main.cvu, counterParty: PROVEEDOR } })],
    ['its own alias, in other letter case', (a: typeof accounts) => ({ destination: { alias: a.main.alias.toUpperCase(), counterParty: PROVEEDOR } })],
  ])('refuses a destination that is the source account by %s as 422 equal-origin-destination', async (_case, destination) => {
    const res = await post(outgoing(accounts.main.id, destination(accounts)));
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('equal-origin-destination');
  });

  it.each([
    ['CVU', (a: typeof accounts) => ({ destination: { cbuCvu: a.sub.cvu, counterParty: PROVEEDOR } })],
    ['alias', (a: typeof accounts) => ({ destination: { alias: a.sub.alias.toUpperCase(), counterParty: PROVEEDOR } })],
  ])("refuses an OUTGOING_TRANSFER to another of the caller's current accounts by %s (400: its money would leave the ledger)", async (_case, destination) => {
    const res = await post(outgoing(accounts.main.id, destination(accounts)));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation' });
    expect(JSON.stringify(res.body)).toContain('INTERNAL_TRANSFER');
  });

  describe("an account of this service named by CVU or alias (the service's own aliases resolved here, not at the provider)", () => {
    const readAccount = async (token: string) => {
      const { account } = await activeAccount(ctx.api, token);
      return (await ctx.api.call('get', `/v1/receivable-accounts/${account.id}`, { token })).body as { id: number; cvu: string; alias: string };
    };
    const byCvu = (a: { cvu: string }) => ({ destination: { cbuCvu: a.cvu, counterParty: PROVEEDOR } });
    const byAlias = (a: { alias: string }) => ({ destination: { alias: a.alias.toUpperCase(), counterParty: PROVEEDOR } });

    it.each([
      ['CVU', byCvu],
      ['alias', byAlias],
    ])("refuses the caller's own receivable account by %s as 422 receivable-account-not-transfer-enabled", async (_case, destination) => {
      const account = await readAccount(ctx.token);
      const res = await post(outgoing(accounts.main.id, destination(account)));
      expect(res.body).toMatchObject({ status: 422, code: 'receivable-account-not-transfer-enabled' });
      expect(res.body.detail).toContain(`receivable account ${account.id}`);
    });

    it.each([
      ['CVU', byCvu],
      ['alias', byAlias],
    ])("refuses another customer's current account by %s (400: no payment from outside reaches it)", async (_case, destination) => {
      const { main } = await currentAccountsOf(ctx.api, ctx.otherToken);
      const res = await post(outgoing(accounts.main.id, destination(main)));
      expect(res.body).toMatchObject({ status: 400, code: 'validation' });
      expect(res.body.detail).toContain('takes no payments from outside');
    });

    it("refuses another customer's receivable account that is not ACTIVE (400: it refuses what arrives, the money would be lost)", async () => {
      const theirs = await readAccount(ctx.otherToken);
      await ctx.api.call('delete', `/v1/receivable-accounts/${theirs.id}`, { token: ctx.otherToken });
      const res = await post(outgoing(accounts.main.id, byCvu(theirs)));
      expect(res.body).toMatchObject({ status: 400, code: 'validation' });
      expect(res.body.detail).toContain('not ACTIVE');
    });

    it("pays another customer's receivable account named by its alias to its own CVU", async () => {
      const theirs = await readAccount(ctx.otherToken);
      const res = await post(outgoing(accounts.main.id, byAlias(theirs)));
      expect(res.status).toBe(201);
      expect(res.body.destination).toMatchObject({ cbuCvu: theirs.cvu, alias: theirs.alias.toUpperCase() });
    });
  });

  it('tells an unknown source (404) from a receivable account named as one (422)', async () => {
    expect((await post(outgoing(999_999_999))).body).toMatchObject({ status: 404, code: 'resource-not-found' });
    const { account } = await activeAccount(ctx.api, ctx.token);
    expect((await post(outgoing(account.id))).body).toMatchObject({ status: 422, code: 'receivable-account-not-transfer-enabled' });
    const toReceivable = { type: 'INTERNAL_TRANSFER', destination: { accountId: account.id } };
    expect((await post(outgoing(accounts.main.id, toReceivable))).body).toMatchObject({ status: 422, code: 'receivable-account-not-transfer-enabled' });
  });

  it('refuses a source account that is not ACTIVE as 422 source-account-not-active', async () => {
    const { customer, clientId, clientSecret } = await ctx.api.app.customers.create.execute({ name: `Disabled source ${process.pid}` });
    const token = await ctx.api.login({ clientId, clientSecret });
    const { main } = await currentAccountsOf(ctx.api, token);
    await ctx.api.db.knex('current_accounts').where({ id: main.id, customer_id: customer.id }).update({ status: 'DISABLED' });
    const res = await postTransfer(ctx.api, token, outgoing(main.id));
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('source-account-not-active');
  });

  it('needs transfers:write to create and transfers:read to read', async () => {
    const { customer } = await ctx.api.app.customers.create.execute({ name: `Scopes ${process.pid}` });
    const readOnly = await ctx.api.app.credentials.create.execute({ customerId: customer.id, scopes: ['transfers:read'] });
    const token = await ctx.api.login(readOnly);
    expect((await postTransfer(ctx.api, token, outgoing(1))).body).toMatchObject({ status: 403, code: 'insufficient-scope' });
    expect((await ctx.api.call('get', '/v1/transfers', { token })).status).toBe(200);
  });
});

describe('GET /v1/transfers filters', () => {
  const ctx = useTestApi();

  it('lists the caller’s transfers newest first, by type, status, source account, external id and creation date', async () => {
    const { main, sub } = await currentAccountsOf(ctx.api, ctx.token);
    const post = async (body: unknown) => (await postTransfer(ctx.api, ctx.token, body)).body as { id: number; creationDate: string };
    const paid = await post(outgoing(main.id, { externalId: 'F-1' }));
    const later = await post(outgoing(main.id, { scheduledDate: dayFromToday(3) }));
    const internal = await post({ type: 'INTERNAL_TRANSFER', sourceAccountId: sub.id, amount: 1, currencyCode: 'ARS', destination: { accountId: main.id } });
    await postTransfer(ctx.api, ctx.otherToken, outgoing((await currentAccountsOf(ctx.api, ctx.otherToken)).main.id, { externalId: 'F-1' }));
    const ids = async (query: string) => {
      const res = await ctx.api.call('get', `/v1/transfers${query}`, { token: ctx.token });
      expect(res.status).toBe(200);
      return { ids: (res.body as Array<{ id: number }>).map((t) => t.id), total: res.headers['x-total-count'] };
    };
    expect(await ids('')).toEqual({ ids: [internal.id, later.id, paid.id], total: '3' });
    expect(await ids('?page=2&count=2')).toEqual({ ids: [paid.id], total: '3' });
    expect((await ids('?type=INTERNAL_TRANSFER')).ids).toEqual([internal.id]);
    expect((await ids('?status=SCHEDULED')).ids).toEqual([later.id]);
    expect((await ids(`?sourceAccountId=${sub.id}`)).ids).toEqual([internal.id]);
    expect((await ids('?externalId=F-1')).ids).toEqual([paid.id]);
    expect((await ids(`?fromDate=${later.creationDate}&toDate=${later.creationDate}`)).ids).toEqual([later.id]);
  });

  it('refuses a malformed filter as 400 validation', async () => {
    const res = await ctx.api.call('get', '/v1/transfers?status=DONE', { token: ctx.token });
    expect(res.body).toMatchObject({ status: 400, code: 'validation', invalidParams: [expect.objectContaining({ name: 'status' })] });
  });
});
