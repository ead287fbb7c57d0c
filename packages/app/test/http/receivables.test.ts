import { itRacing, useTestApi } from '../support/test-api';
import { activeAccount, currentAccountIdOf, key, parties } from '../support/fixtures';
import { receivableCalls } from '../support/receivable-calls';

const INVOICE_DATA = { version: '1', pointOfSale: '0003', rawDocumentType: '01', authCodeType: 'CAE', authCode: '74123456789012' };

describe('receivables', () => {
  const ctx = useTestApi();
  const { issue, status, invoice, child } = receivableCalls(ctx);

  it('issues a PENDING receivable with 201, inheriting the client, and records receivable.created', async () => {
    const { account, client } = await activeAccount(ctx.api, ctx.token);
    const res = await invoice(account.id, '1234.5', { legalNumber: `A-${account.id}`, dueDate: '2026-12-31', invoiceData: INVOICE_DATA, description: 'Marzo' });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/v1/receivables/${res.body.id}`);
    expect(res.body).toMatchObject({
      status: 'PENDING',
      amount: 1234.5,
      clientId: client.id,
      receivableType: 'INVOICE',
      dueDate: '2026-12-31',
      invoiceData: INVOICE_DATA,
    });
    expect(res.body.receivableDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const events = await ctx.api.db.knex('outbox_events').where({ type: 'receivable.created' });
    expect(events.map((e) => e.data.receivable.id)).toContain(res.body.id);
    const account2 = (await ctx.api.call('get', `/v1/receivable-accounts/${account.id}`, { token: ctx.token })).body;
    expect(account2.stats.pendingAmount).toBe(1234.5);
  });

  it("issues on a PROVISIONING account but not on a DISABLED one, nor on a current account: its own (422), another customer's (403)", async () => {
    const { client } = await parties(ctx.api, ctx.token);
    const account = (await ctx.api.call('post', '/v1/receivable-accounts', { token: ctx.token, body: { clientId: client.id }, headers: key('a') })).body;
    expect((await invoice(account.id)).status).toBe(201);
    await ctx.api.call('delete', `/v1/receivable-accounts/${account.id}`, { token: ctx.token });
    expect((await invoice(account.id)).body.code).toBe('receivable-account-not-active');
    const res = await invoice(await currentAccountIdOf(ctx.api, 'sandbox-client'));
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('current-account-not-receivable-enabled');
    const theirs = await invoice(await currentAccountIdOf(ctx.api, 'sandbox-client-2'));
    expect([theirs.status, theirs.body.code]).toEqual([403, 'resource-not-accessible']);
  });

  it.each([
    ['a third decimal', { amount: 10.001 }, 'amount'],
    ['zero', { amount: 0 }, 'amount'],
    ['a negative amount', { amount: -5 }, 'amount'],
    ['more than 9999999999999.99', { amount: '10000000000000' }, 'amount'],
    ['an unknown type', { receivableType: 'GIFT' }, 'receivableType'],
    ['an impossible due date', { dueDate: '2026-02-30' }, 'dueDate'],
    ['a due date before the issue date', { issueDate: '2026-05-02', dueDate: '2026-05-01' }, 'dueDate'],
    ['a missing currency', { currencyCode: undefined }, 'currencyCode'],
    ['a currency not in the form of an ISO 4217 code', { currencyCode: 'ars' }, 'currencyCode'],
    ['a legalNumber ending in white space (another key that looks like one)', { legalNumber: 'B-3 ' }, 'legalNumber'],
    ['a legalNumber holding an invisible character', { legalNumber: 'B-3\u200b' }, 'legalNumber'],
    ['a legalNumber of spaces alone', { legalNumber: '  ' }, 'legalNumber'],
    ['a legalNumber holding a character that renders as nothing (Hangul filler)', { legalNumber: 'B-\u31643' }, 'legalNumber'],
    ['a legalNumber holding a combining grapheme joiner', { legalNumber: 'B-3\u034f' }, 'legalNumber'],
    ['a legalNumber decomposed (e and a combining accent, beside the composed é)', { legalNumber: 'FAC-Se\u0301' }, 'legalNumber'],
  ])('refuses %s with 400 validation', async (_what, extra, field) => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const res = await invoice(account.id, 10, extra);
    expect(res.status).toBe(400);
    expect(res.body.invalidParams.map((p: { name: string }) => p.name)).toContain(field);
  });

  it('keeps the largest amount exact to the cent', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const res = await invoice(account.id, 9999999999999.99);
    expect(res.body.amount).toBe(9999999999999.99);
    expect((await ctx.api.db.knex('receivables').where({ id: res.body.id }).first()).amount_minor).toBe('999999999999999');
  });

  it('answers account mismatches with their codes', async () => {
    const { account, associate } = await activeAccount(ctx.api, ctx.token);
    const other = await parties(ctx.api, ctx.token);
    expect((await invoice(account.id, 1, { currencyCode: 'USD' })).body.code).toBe('unmatching-receivable-currency-code');
    expect((await invoice(account.id, 1, { clientId: other.client.id })).body.code).toBe('unmatching-receivable-client-id');
    const bound = await invoice(account.id, 1, { associateId: associate.id });
    expect(bound.body.associateId).toBe(associate.id);
    expect((await ctx.api.call('get', `/v1/receivable-accounts/${account.id}`, { token: ctx.token })).body.owner.type).toBe('CLIENT_AND_ASSOCIATE');
    const conflict = await invoice(account.id, 1, { associateId: other.associate.id });
    expect(conflict.status).toBe(422);
    expect(conflict.body.code).toBe('receivable-account-associate-conflict');
    expect((await invoice(account.id, 1)).status).toBe(201);
    expect((await issue({ receivableAccountId: account.id, amount: 1, currencyCode: 'ARS', receivableType: 'INVOICE' }, ctx.otherToken)).body.code).toBe(
      'resource-not-accessible',
    );
    expect((await invoice(987654321)).status).toBe(404);
  });

  it('answers a receivable naming a DISABLED associate, even the one its account is bound to, with 422 associate-disabled', async () => {
    const { account, associate } = await activeAccount(ctx.api, ctx.token);
    expect((await invoice(account.id, 1, { associateId: associate.id })).status).toBe(201);
    await ctx.api.call('delete', `/v1/associates/${associate.id}`, { token: ctx.token });
    const res = await invoice(account.id, 1, { associateId: associate.id });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('associate-disabled');
    expect(await ctx.api.db.knex('receivables').where({ receivable_account_id: account.id }).count({ n: '*' })).toEqual([{ n: '1' }]);
  });

  it('requires the voucher fields once invoiceData is present, naming the missing ones', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const res = await invoice(account.id, 10, { invoiceData: { version: '1', authCodeType: 'CAE' } });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'missing-invoice-fields', missingFields: ['pointOfSale', 'rawDocumentType', 'authCode'] });
    const blank = await invoice(account.id, 10, {
      invoiceData: { version: '   ', pointOfSale: '1', rawDocumentType: 'A', authCodeType: 'CAE', authCode: ' ' },
    });
    expect(blank.body).toMatchObject({ code: 'missing-invoice-fields', missingFields: ['version', 'authCode'] });
  });

  it('answers a second use of a legalNumber with 409 duplicated-legal-number', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    expect((await invoice(account.id, 1, { legalNumber: `DUP-${account.id}` })).status).toBe(201);
    const res = await invoice(account.id, 1, { legalNumber: `DUP-${account.id}` });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('duplicated-legal-number');
    expect(
      (
        await issue(
          {
            receivableAccountId: (await activeAccount(ctx.api, ctx.otherToken)).account.id,
            amount: 1,
            currencyCode: 'ARS',
            receivableType: 'INVOICE',
            legalNumber: `DUP-${account.id}`,
          },
          ctx.otherToken,
        )
      ).status,
    ).toBe(201);
  });

  itRacing('binds an associate once when concurrent receivables name it for an account without one', async () => {
    const { account, associate } = await activeAccount(ctx.api, ctx.token);
    const results = await Promise.all(Array.from({ length: 6 }, () => invoice(account.id, 1, { associateId: associate.id })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const bound = await ctx.api.call('get', `/v1/receivable-accounts/${account.id}`, { token: ctx.token });
    expect(bound.body.owner).toEqual({ type: 'CLIENT_AND_ASSOCIATE', clientId: expect.any(Number), associateId: associate.id });
  });

  itRacing('never creates two receivables with one legalNumber under concurrent requests', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const results = await Promise.all(Array.from({ length: 8 }, () => invoice(account.id, 1, { legalNumber: `RACE-${account.id}` })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'duplicated-legal-number')).toBe(true);
  });

  itRacing('creates one receivable and one event for concurrent requests with one Idempotency-Key, every one answered alike', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const body = { receivableAccountId: account.id, amount: 77, currencyCode: 'ARS', receivableType: 'INVOICE' };
    const headers = { 'Idempotency-Key': `race-${account.id}` };
    const results = await Promise.all(Array.from({ length: 8 }, () => ctx.api.call('post', '/v1/receivables', { token: ctx.token, body, headers })));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(7);
    expect(Number((await ctx.api.db.knex('receivables').where({ receivable_account_id: account.id }).count({ n: '*' }))[0].n)).toBe(1);
    const events = await ctx.api.db
      .knex('outbox_events')
      .where({ type: 'receivable.created' })
      .whereRaw("(data->'receivable'->>'receivableAccountId')::bigint = ?", [account.id]);
    expect(events).toHaveLength(1);
  });

  it('edits the editable fields, the amount only while PENDING and never below its children', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const parent = (await invoice(account.id, 100)).body;
    await child(account.id, parent.id, 40);
    const url = `/v1/receivables/${parent.id}`;
    const edited = await ctx.api.call('put', url, {
      token: ctx.token,
      body: { description: 'new', dueDate: '2027-01-31', amount: 40, receivableType: 'INVOICE' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ description: 'new', dueDate: '2027-01-31', amount: 40 });
    expect((await ctx.api.call('put', url, { token: ctx.token, body: { amount: 39.99 } })).body.code).toBe('child-receivables-exceed-parent-amount');
    expect((await ctx.api.call('put', url, { token: ctx.token, body: { receivableType: 'DEBT' } })).status).toBe(400);
    const early = await ctx.api.call('put', url, { token: ctx.token, body: { issueDate: '2027-02-01' } });
    expect([early.status, early.body.invalidParams]).toEqual([400, [{ name: 'dueDate', reason: 'must not be before issueDate (2027-02-01)' }]]);
    expect((await ctx.api.call('put', url, { token: ctx.token, body: { issueDate: '2027-01-31' } })).body.issueDate).toBe('2027-01-31');
    await status(parent.id, 'PAID');
    expect((await ctx.api.call('put', url, { token: ctx.token, body: { amount: 50 } })).body.code).toBe('invalid-status-transition');
    expect((await ctx.api.call('put', url, { token: ctx.token, body: { description: 'still editable' } })).status).toBe(200);
    const done = (await invoice(account.id, 5)).body;
    await status(done.id, 'DISABLED');
    expect((await ctx.api.call('put', `/v1/receivables/${done.id}`, { token: ctx.token, body: { description: 'x' } })).body.code).toBe(
      'updating-receivable-final-status',
    );
  });

  it('lists with filters and through the account', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const a = (await invoice(account.id, 10, { dueDate: '2026-06-01', issueDate: '2026-05-01', externalRoutingCode: 'FILTER' })).body;
    const b = (await issue({ receivableAccountId: account.id, amount: 20, currencyCode: 'ARS', receivableType: 'DEBT', dueDate: '2026-07-01' })).body;
    await status(b.id, 'PAID');
    const ids = async (query: string) =>
      (await ctx.api.call('get', `/v1/receivables?receivableAccountId=${account.id}&${query}`, { token: ctx.token })).body.map((r: { id: number }) => r.id);
    expect(await ids('')).toEqual([b.id, a.id]);
    expect(await ids('status=PAID')).toEqual([b.id]);
    expect(await ids('receivableType=INVOICE')).toEqual([a.id]);
    expect(await ids('fromDueDate=2026-06-15')).toEqual([b.id]);
    expect(await ids('toIssueDate=2026-05-01')).toEqual([a.id]);
    expect(await ids('externalRoutingCode=FILTER')).toEqual([a.id]);
    expect(await ids('minAmount=15&maxAmount=20.00')).toEqual([b.id]);
    expect(await ids('maxAmount=0')).toEqual([]);
    const nested = await ctx.api.call('get', `/v1/receivable-accounts/${account.id}/receivables?status=PENDING`, { token: ctx.token });
    expect(nested.body.map((r: { id: number }) => r.id)).toEqual([a.id]);
    expect((await ctx.api.call('get', `/v1/receivable-accounts/${account.id}/receivables`, { token: ctx.otherToken })).status).toBe(403);
    expect((await ctx.api.call('get', '/v1/receivables?minAmount=abc', { token: ctx.token })).status).toBe(400);
  });

  it('issues a batch where each item stands alone, malformed items included', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const res = await ctx.api.call('post', '/v1/receivables/batches', {
      token: ctx.token,
      headers: key('batch'),
      body: {
        items: [
          { receivableAccountId: account.id, amount: 10, currencyCode: 'ARS', receivableType: 'INVOICE', legalNumber: `B-${account.id}` },
          { receivableAccountId: account.id, amount: 10, currencyCode: 'ARS', receivableType: 'INVOICE', legalNumber: `B-${account.id}` },
          { receivableAccountId: account.id, amount: 'lots', currencyCode: 'ARS', receivableType: 'INVOICE' },
          { receivableAccountId: account.id, amount: 1, currencyCode: 'ARS', receivableType: 'CREDIT_NOTE' },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([201, 409, 400, 422]);
    expect(res.body.results[0].receivable.legalNumber).toBe(`B-${account.id}`);
    expect(res.body.results[3].error.code).toBe('missing-parent-receivable');
    const noKey = await ctx.api.call('post', '/v1/receivables/batches', { token: ctx.token, body: { items: [] } });
    expect(noKey.status).toBe(400);
  });
});
