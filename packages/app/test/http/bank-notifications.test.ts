import request from 'supertest';
import { SIGNATURE_HEADER, signNotification } from '@rcs/adapters-bank';
import { itRacing, TEST_NOTIFICATION_SECRET, useTestApi } from '../support/test-api';
import { activeAccount } from '../support/fixtures';

const SECRET = TEST_NOTIFICATION_SECRET;
const PATH = '/bank/notifications/incoming-transfers';

describe('incoming transfers notified by the banking provider', () => {
  const ctx = useTestApi();
  const notify = (notification: object, secret = SECRET) => {
    const body = JSON.stringify(notification);
    return request(ctx.api.http).post(PATH).set('content-type', 'application/json').set(SIGNATURE_HEADER, signNotification(body, secret)).send(body);
  };

  /** A notification of a transfer to a fresh ACTIVE account of its own. */
  const aTransfer = async (prefix: string) => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const cvu = (await ctx.api.call('get', `/v1/receivable-accounts/${account.id}`, { token: ctx.token })).body.cvu;
    return {
      account,
      notification: {
        notificationId: `${prefix}-${account.id}`,
        cvu,
        amount: '250.40',
        currencyCode: 'ARS',
        counterParty: { name: 'Pagador SA', taxId: '30-71234567-1' },
      },
    };
  };
  const movementsOf = (accountId: number) => ctx.api.call('get', `/v1/receivable-accounts/${accountId}/movements`, { token: ctx.token });

  it('records the collection on the account with that CVU, once per notification id', async () => {
    const { account, notification } = await aTransfer('tr');
    const first = await notify(notification);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ receivableAccountId: account.id, movementType: 'CREDIT', operationType: 'DEPOSIT', amount: 250.4 });
    const again = await notify(notification);
    expect([again.status, again.body.id]).toEqual([200, first.body.id]);
    expect((await movementsOf(account.id)).headers['x-total-count']).toBe('1');
  });

  it("records the payer's tax id as the provider reports it, a foreign prefix, an unverified check digit or any white space included: the money has arrived", async () => {
    for (const taxId of ['55-00000220-7', '20123456780', '20\t12345678 6']) {
      const { account, notification } = await aTransfer(`payer-${taxId.replace(/\s/g, '_')}`);
      const res = await notify({ ...notification, counterParty: { name: 'Exterior LLC', taxId } });
      expect([res.status, res.body.counterParty]).toEqual([201, { name: 'Exterior LLC', taxId: taxId.replace(/[\s-]/g, '') }]);
      expect((await movementsOf(account.id)).headers['x-total-count']).toBe('1');
    }
    const { notification } = await aTransfer('payer-short');
    const short = await notify({ ...notification, counterParty: { name: 'X', taxId: '2012345678' } });
    expect([short.status, short.body.invalidParams]).toEqual([
      400,
      [{ name: 'counterParty.taxId', reason: 'must have 11 digits (dashes and spaces allowed)' }],
    ]);
  });

  it('refuses another notification under a recorded id with 409, recording nothing more', async () => {
    const { account, notification } = await aTransfer('conflict');
    const other = await aTransfer('other');
    expect((await notify(notification)).status).toBe(201);
    for (const changed of [{ amount: '250.41' }, { currencyCode: 'USD' }, { cvu: other.notification.cvu }]) {
      const res = await notify({ ...notification, ...changed });
      expect([res.status, res.body.code]).toEqual([409, 'idempotency-key-reuse']);
    }
    expect([(await movementsOf(account.id)).headers['x-total-count'], (await movementsOf(other.account.id)).headers['x-total-count']]).toEqual(['1', '0']);
  });

  it('settles the collected amount to the customer like any other collection', async () => {
    const { account, notification } = await aTransfer('settled');
    await notify(notification);
    await ctx.api.call('post', '/v1/sandbox/settlement-runs', { token: ctx.token });
    const settlements = await ctx.api.call('get', `/v1/settlements?receivableAccountId=${account.id}`, { token: ctx.token });
    expect(settlements.body.map((s: { amount: number }) => s.amount)).toEqual([250.4]);
  });

  itRacing('records a notification once when its duplicates arrive together', async () => {
    const { account, notification } = await aTransfer('race');
    const results = await Promise.all([notify(notification), notify(notification), notify(notification)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect((await movementsOf(account.id)).headers['x-total-count']).toBe('1');
  });

  it('refuses an unsigned or wrongly signed notification with 401 and records nothing', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const cvu = (await ctx.api.call('get', `/v1/receivable-accounts/${account.id}`, { token: ctx.token })).body.cvu;
    const notification = { notificationId: `bad-${account.id}`, cvu, amount: 1, currencyCode: 'ARS', counterParty: { name: 'X', taxId: '20123456786' } };
    expect((await notify(notification, 'wrong-secret')).status).toBe(401);
    expect((await request(ctx.api.http).post(PATH).set('content-type', 'application/json').send(notification)).status).toBe(401);
    const movements = await ctx.api.call('get', `/v1/receivable-accounts/${account.id}/movements`, { token: ctx.token });
    expect(movements.body).toEqual([]);
  });

  it('answers a correctly signed body that is not JSON with 400 validation naming the body', async () => {
    const body = '{"notificationId": ';
    const res = await request(ctx.api.http).post(PATH).set('content-type', 'application/json').set(SIGNATURE_HEADER, signNotification(body, SECRET)).send(body);
    expect([res.status, res.body.code, res.body.invalidParams]).toEqual([400, 'validation', [{ name: 'body', reason: 'not valid JSON' }]]);
  });

  it('refuses an amount a double cannot hold, or bytes that are not UTF-8, with 400 validation, crediting nothing', async () => {
    const { account, notification } = await aTransfer('inexact');
    // supertest would send a Buffer declared as JSON as the JSON of a Buffer; the route reads the bytes whatever their type.
    const signed = (body: string | Buffer) =>
      request(ctx.api.http)
        .post(PATH)
        .set('content-type', typeof body === 'string' ? 'application/json' : 'application/octet-stream')
        .set(SIGNATURE_HEADER, signNotification(body, SECRET))
        .send(body);
    for (const amount of ['99999999999.999999', '1.0000000000000001', '0.29999999999999999']) {
      const res = await signed(JSON.stringify(notification).replace('"250.40"', amount));
      expect([res.status, res.body.code, res.body.invalidParams[0].name]).toEqual([400, 'validation', 'amount']);
    }
    // The payer's name in Latin-1: its Ñ is one byte, not UTF-8.
    const res = await signed(Buffer.from(JSON.stringify(notification).replace('Pagador SA', 'Pagador \u00d1'), 'latin1'));
    expect([res.status, res.body.invalidParams]).toEqual([400, [{ name: 'body', reason: 'must be UTF-8 (it holds a byte sequence that is not)' }]]);
    expect((await movementsOf(account.id)).headers['x-total-count']).toBe('0');
    // Exact, as a number or a string, it is credited.
    expect((await signed(JSON.stringify(notification).replace('"250.40"', '250.4'))).status).toBe(201);
  });

  it('answers malformed, unknown-CVU and non-ARS notifications with their errors', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const cvu = (await ctx.api.call('get', `/v1/receivable-accounts/${account.id}`, { token: ctx.token })).body.cvu;
    const base = { notificationId: `e-${account.id}`, cvu, amount: 1, currencyCode: 'ARS', counterParty: { name: 'X', taxId: '20123456786' } };
    expect((await notify({ ...base, amount: 0.001 })).status).toBe(400);
    expect((await notify({ ...base, cvu: '123' })).body.invalidParams[0].name).toBe('cvu');
    expect((await notify({ ...base, cvu: '0'.repeat(22) })).status).toBe(404);
    expect((await notify({ ...base, currencyCode: 'USD' })).body.code).toBe('unmatching-movement-currency-code');
    for (const [member, hostile] of [
      ['notificationId', { notificationId: 'n\u0000' }],
      ['counterParty.name', { counterParty: { name: 'Pagador \ud800', taxId: '20123456786' } }],
      ['currencyCode', { currencyCode: 'ars' }],
      ['currencyCode', { currencyCode: 'ARSS' }],
      ['currencyCode', { currencyCode: true }],
      ['currencyCode', { currencyCode: {} }],
    ] as const) {
      const res = await notify({ ...base, ...hostile });
      expect([res.status, res.body.invalidParams[0].name]).toEqual([400, member]);
    }
  });
});
