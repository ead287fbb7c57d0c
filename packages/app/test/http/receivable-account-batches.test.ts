import { itRacing, useTestApi } from '../support/test-api';
import { receivableAccountCalls } from '../support/receivable-account-calls';
import { key, parties } from '../support/fixtures';
import { queuedBehind } from '../support/lock-queue';

type Result = { status: number; receivableAccount?: { id: number }; error?: { code: string; existingResourceId?: number } };

describe('receivable account batches', () => {
  const ctx = useTestApi();
  const { open } = receivableAccountCalls(ctx);
  const post = (items: object[]) => ctx.api.call('post', '/v1/receivable-accounts/batches', { token: ctx.token, headers: key('accounts'), body: { items } });

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

  it('answers a malformed item its own 400, as the receivables batch does, and opens the others', async () => {
    const { client } = await parties(ctx.api, ctx.token);
    const res = await post([{ clientId: 'x' }, { clientId: client.id }, 5 as unknown as object]);
    expect(res.status).toBe(200);
    const results = res.body.results as Result[];
    expect(results.map((r) => r.status)).toEqual([400, 201, 400]);
    expect(results[0].error).toMatchObject({ code: 'validation', invalidParams: [{ name: 'clientId' }] });
    expect(results[2].error).toMatchObject({ code: 'validation' });
    expect((await ctx.api.call('get', `/v1/receivable-accounts/${results[1].receivableAccount!.id}`, { token: ctx.token })).status).toBe(200);
  });

  itRacing('opens each owner once when two batches name the same owners in opposite orders, both answered item by item', async () => {
    const { knex } = ctx.api.db;
    for (let round = 0; round < 6; round++) {
      const all: Array<Awaited<ReturnType<typeof parties>>> = [];
      for (let n = 0; n < 4; n++) all.push(await parties(ctx.api, ctx.token));
      // Every client and associate alone, and every pair of them.
      const owners: Array<{ clientId?: number; associateId?: number }> = all.flatMap(({ client, associate }) => [
        { clientId: client.id },
        { associateId: associate.id },
        ...all.map((other) => ({ clientId: client.id, associateId: other.associate.id })),
      ]);
      // An associate both name is held while they start, so that both insert at once once it is let go; in item
      // order, each would hold rows the other waits for (a deadlock).
      const holder = await knex.transaction();
      await holder('associates').where({ id: all[0].associate.id }).forUpdate();
      const { rows } = await holder.raw<{ rows: { pid: number }[] }>('SELECT pg_backend_pid() AS pid');
      const racing = Promise.all([post(owners), post([...owners].reverse())]);
      try {
        await queuedBehind(knex, rows[0].pid, 2);
      } finally {
        await holder.commit();
      }
      const [a, b] = await racing;
      expect([a.status, b.status]).toEqual([200, 200]);
      const fromB = [...(b.body.results as Result[])].reverse();
      (a.body.results as Result[]).forEach((fromA, i) => {
        const answers = [fromA, fromB[i]];
        const opened = answers.filter((r) => r.status === 201);
        expect(opened).toHaveLength(1);
        expect(answers.find((r) => r.status !== 201)).toMatchObject({
          status: 409,
          error: { code: 'receivable-account-already-exists', existingResourceId: opened[0].receivableAccount!.id },
        });
      });
      const stored = await knex('receivable_accounts')
        .whereIn(
          'client_id',
          owners.flatMap((o) => o.clientId ?? []),
        )
        .orWhereIn(
          'associate_id',
          owners.flatMap((o) => o.associateId ?? []),
        )
        .count({ n: '*' });
      expect(stored).toEqual([{ n: String(owners.length) }]);
    }
  });
});
