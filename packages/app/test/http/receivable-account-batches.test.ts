import { useTestApi } from '../support/test-api';
import { receivableAccountCalls } from '../support/receivable-account-calls';
import { parties } from '../support/fixtures';

describe('receivable account batches', () => {
  const ctx = useTestApi();
  const { open } = receivableAccountCalls(ctx);

  it('answers an owner repeated inside one batch 409 naming the account its first item opened, and opens each account once', async () => {
    const { client, associate } = await parties(ctx.api, ctx.token);
    const owners = [
      { clientId: client.id },
      { associateId: associate.id },
      { clientId: client.id },
      { clientId: client.id, associateId: associate.id },
      { associateId: associate.id },
    ];
    const res = await ctx.api.call('post', '/v1/receivable-accounts/batches', {
      token: ctx.token,
      headers: { 'Idempotency-Key': `batch-repeat-${Date.now()}` },
      body: { items: owners },
    });
    const results = res.body.results as Array<{ status: number; receivableAccount?: { id: number }; error?: { existingResourceId: number } }>;
    expect(results.map((r) => r.status)).toEqual([201, 201, 409, 201, 409]);
    expect([results[2].error?.existingResourceId, results[4].error?.existingResourceId]).toEqual([
      results[0].receivableAccount?.id,
      results[1].receivableAccount?.id,
    ]);
    const stored = await ctx.api.db
      .knex('receivable_accounts')
      .whereIn(
        'id',
        [0, 1, 3].map((i) => results[i].receivableAccount!.id),
      )
      .count({ n: '*' });
    expect(stored).toEqual([{ n: '3' }]);
  });

  it('opens a batch where each item stands alone', async () => {
    const { client, associate } = await parties(ctx.api, ctx.token);
    const existing = (await open({ associateId: associate.id })).body;
    const res = await ctx.api.call('post', '/v1/receivable-accounts/batches', {
      token: ctx.token,
      headers: { 'Idempotency-Key': `batch-${Date.now()}` },
      body: {
        items: [{ clientId: client.id }, { associateId: associate.id }, {}, { clientId: 987654321 }, { clientId: client.id, associateId: associate.id }],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([201, 409, 422, 404, 201]);
    expect(res.body.results[1].error).toMatchObject({ code: 'receivable-account-already-exists', existingResourceId: existing.id });
    expect(res.body.results[0].receivableAccount.owner).toEqual({ type: 'CLIENT', id: client.id });
    const again = await ctx.api.call('post', '/v1/receivable-accounts/batches', {
      token: ctx.token,
      headers: { 'Idempotency-Key': `batch-again-${Date.now()}` },
      body: { items: [{ clientId: client.id }, { associateId: associate.id, clientId: client.id }, {}] },
    });
    expect(again.body.results.map((r: { status: number; error: { existingResourceId?: number } }) => [r.status, r.error?.existingResourceId])).toEqual([
      [409, res.body.results[0].receivableAccount.id],
      [409, res.body.results[4].receivableAccount.id],
      [422, undefined],
    ]);
    const tooMany = await ctx.api.call('post', '/v1/receivable-accounts/batches', {
      token: ctx.token,
      headers: { 'Idempotency-Key': `batch-big-${Date.now()}` },
      body: { items: Array.from({ length: 1001 }, () => ({ clientId: client.id })) },
    });
    expect(tooMany.status).toBe(400);
  });
});
