import { A_CBU } from '@rcs/domain/testing';
import { assertMatchesWebhookEvent } from '../support/openapi-contract';
import { activeAccount } from '../support/fixtures';
import { useTestApi } from '../support/test-api';
import { currentAccountsOf, outgoing, postTransfer, PROVEEDOR, SIMULATED } from '../support/transfer-fixtures';

interface MovementAnswer {
  id: number;
  subtype: string | null;
  transferId: number | null;
}

describe('movement.created: one event per movement, carrying it as GET movements answers it', () => {
  const ctx = useTestApi();
  const get = async (url: string) => (await ctx.api.call('get', url, { token: ctx.token })).body as unknown;
  const post = (url: string, body?: object) => ctx.api.call('post', url, { token: ctx.token, body });

  it('for a collection, both sides of its settlement, an internal transfer, a payout, and a failed payout and its reversal', async () => {
    await new Promise((resolve) => setTimeout(resolve, 2));
    const since = encodeURIComponent(new Date().toISOString());
    const { account } = await activeAccount(ctx.api, ctx.token);
    const { main, sub } = await currentAccountsOf(ctx.api, ctx.token);
    await post('/v1/sandbox/collections', { receivableAccountId: account.id, amount: '150.75', counterParty: { name: 'Juan Pagador', taxId: '20123456786' } });
    expect((await post('/v1/sandbox/settlement-runs')).body).toMatchObject({ settlements: 1 });
    const transfers = [
      { type: 'INTERNAL_TRANSFER', sourceAccountId: main.id, amount: '12.34', currencyCode: 'ARS', destination: { accountId: sub.id } },
      outgoing(main.id, { amount: '20.00', destination: { cbuCvu: A_CBU, counterParty: PROVEEDOR } }),
      outgoing(main.id, { amount: '7.00', destination: { cbuCvu: SIMULATED.rejected, counterParty: PROVEEDOR } }),
    ];
    const ids: number[] = [];
    for (const body of transfers) ids.push(((await postTransfer(ctx.api, ctx.token, body)).body as { id: number }).id);
    expect((await post('/v1/sandbox/transfer-runs')).body).toEqual({ completed: 2, failed: 1, inProgress: 0 });

    const movements = [
      ...((await get(`/v1/receivable-accounts/${account.id}/movements?fromDate=${since}`)) as MovementAnswer[]),
      ...((await get(`/v1/current-accounts/${main.id}/movements?fromDate=${since}`)) as MovementAnswer[]),
      ...((await get(`/v1/current-accounts/${sub.id}/movements?fromDate=${since}`)) as MovementAnswer[]),
    ].sort((a, b) => a.id - b.id);
    const [internal, paid, rejected] = ids;
    expect(movements.map((m) => [m.subtype, m.transferId])).toEqual([
      [null, null],
      ['SETTLEMENT_OUT', null],
      ['SETTLEMENT_IN', null],
      ['TRANSFER_OUT', internal],
      ['TRANSFER_IN', internal],
      ['TRANSFER_OUT', paid],
      ['TRANSFER_OUT', rejected],
      ['TRANSFER_REVERSAL', rejected],
    ]);
    const ofTransfers = (await get(`/v1/current-accounts/${main.id}/movements?operationType=TRANSFER&sort=movementDate`)) as MovementAnswer[];
    expect(ofTransfers.map((m) => m.subtype).sort()).toEqual(['TRANSFER_OUT', 'TRANSFER_OUT', 'TRANSFER_OUT', 'TRANSFER_REVERSAL']);
    const events = (await get(`/v1/events?type=movement.created&fromDate=${since}&count=50`)) as Array<{ data: { movement: MovementAnswer } }>;
    for (const event of events) assertMatchesWebhookEvent('movement.created', event);
    expect(events.map((e) => e.data.movement).sort((a, b) => a.id - b.id)).toEqual(movements);
  });
});
