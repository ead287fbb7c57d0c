import { useTestApi } from '../support/test-api';
import { activeAccount, key, parties } from '../support/fixtures';

describe('route settlements', () => {
  const ctx = useTestApi();
  const settle = (body: object, token = ctx.token) => ctx.api.call('post', '/v1/route-settlements', { token, body });
  const issue = (body: object) => ctx.api.call('post', '/v1/receivables', { token: ctx.token, body: { currencyCode: 'ARS', ...body }, headers: key('rs') });

  it('creates with 201, returns the same one with 200, and refuses the code elsewhere', async () => {
    const { associate } = await parties(ctx.api, ctx.token);
    const other = (await parties(ctx.api, ctx.token)).associate;
    const body = { routeCode: `R-${associate.id}`, date: '2026-03-02', associateId: associate.id };
    const created = await settle(body);
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe(`/v1/route-settlements/R-${associate.id}`);
    expect(created.body).toMatchObject({
      routeCode: body.routeCode,
      date: '2026-03-02',
      associateId: associate.id,
      receivableAccountIds: [],
      summary: { receivablesCount: 0, totalAmount: 0, byReceivableType: [] },
    });
    const again = await settle(body);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(created.body.id);
    const otherDate = await settle({ ...body, date: '2026-03-03' });
    expect(otherDate.status).toBe(422);
    expect(otherDate.body.code).toBe('route-code-already-used');
    const otherAssociate = await settle({ ...body, associateId: other.id });
    expect(otherAssociate.status).toBe(409);
    expect(otherAssociate.body.code).toBe('route-code-already-used');
  });

  it.each([
    ['spaces alone', '   '],
    ['a space at its end beside the code without it', 'R1 '],
    ['a control character', 'R1\u0001'],
    ['a path separator', 'R/1'],
    ['a dot alone, which a path leaves', '.'],
    ['two dots alone', '..'],
    ['a zero-width space inside', 'R\u200b1'],
    ['a right-to-left override inside', 'R\u202e1'],
    ['a no-break space inside', 'R\u00a01'],
    ['a Hangul filler, which renders as nothing', 'R\u31641'],
  ])('refuses a route code of %s, on the route settlement and on a receivable, storing nothing', async (_, routeCode) => {
    const { account, associate } = await activeAccount(ctx.api, ctx.token);
    const refused = await settle({ routeCode, date: '2026-03-02', associateId: associate.id });
    expect(refused.status).toBe(400);
    expect(refused.body.invalidParams).toEqual([{ name: 'routeCode', reason: expect.stringMatching(/^routeCode must not start or end with white space/) }]);
    const receivable = await issue({ receivableAccountId: account.id, amount: 5, receivableType: 'INVOICE', externalRoutingCode: routeCode });
    expect(receivable.status).toBe(400);
    expect(receivable.body.invalidParams.map((p: { name: string }) => p.name)).toEqual(['externalRoutingCode']);
    expect(await ctx.api.db.knex('route_settlements').where({ route_code: routeCode }).count({ n: '*' })).toEqual([{ n: '0' }]);
  });

  it("links each page of an associate's route settlements but the last to the next, as every list does", async () => {
    const { associate } = await parties(ctx.api, ctx.token);
    for (const day of ['01', '02', '03']) await settle({ routeCode: `L-${associate.id}-${day}`, date: `2026-04-${day}`, associateId: associate.id });
    const seen: string[] = [];
    let path = `/v1/associates/${associate.id}/route-settlements?count=2`;
    for (let pages = 0; path && pages < 5; pages++) {
      const res = await ctx.api.call('get', path, { token: ctx.token });
      expect(res.headers['x-total-count']).toBe('3');
      seen.push(...res.body.map((s: { routeCode: string }) => s.routeCode));
      path = /^<([^>]+)>; rel="next"$/.exec(res.headers.link ?? '')?.[1] ?? '';
    }
    expect(seen.sort()).toEqual(['01', '02', '03'].map((day) => `L-${associate.id}-${day}`));
  });

  it("refuses a DISABLED associate and another customer's", async () => {
    const { associate } = await parties(ctx.api, ctx.token);
    expect((await settle({ routeCode: 'X1', date: '2026-03-02', associateId: associate.id }, ctx.otherToken)).status).toBe(403);
    await ctx.api.call('delete', `/v1/associates/${associate.id}`, { token: ctx.token });
    const res = await settle({ routeCode: `D-${associate.id}`, date: '2026-03-02', associateId: associate.id });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('associate-disabled');
  });

  it("groups the associate's receivables with the route code and sums them net of negative types", async () => {
    const { account, associate } = await activeAccount(ctx.api, ctx.token);
    const code = `SHIFT-${associate.id}`;
    const early = (await issue({ receivableAccountId: account.id, amount: 5, receivableType: 'INVOICE', associateId: associate.id, externalRoutingCode: code }))
      .body;
    await settle({ routeCode: code, date: '2026-03-02', associateId: associate.id });
    const invoice = (
      await issue({ receivableAccountId: account.id, amount: '1500.50', receivableType: 'INVOICE', associateId: associate.id, externalRoutingCode: code })
    ).body;
    await issue({
      receivableAccountId: account.id,
      amount: '200.25',
      receivableType: 'RETURN_PRODUCT',
      parentReceivableId: invoice.id,
      associateId: associate.id,
      externalRoutingCode: code,
    });
    await issue({ receivableAccountId: account.id, amount: 99, receivableType: 'INVOICE', externalRoutingCode: code });
    const detail = await ctx.api.call('get', `/v1/route-settlements/${code}`, { token: ctx.token });
    expect(detail.body.receivableAccountIds).toEqual([account.id]);
    expect(detail.body.summary).toEqual({
      receivablesCount: 2,
      totalAmount: 1300.25,
      byReceivableType: [
        { type: 'INVOICE', count: 1, amount: 1500.5 },
        { type: 'RETURN_PRODUCT', count: 1, amount: -200.25 },
      ],
    });
    const repeated = await settle({ routeCode: code, date: '2026-03-02', associateId: associate.id });
    expect([repeated.status, repeated.body]).toEqual([200, detail.body]);
    const receivables = await ctx.api.call('get', `/v1/route-settlements/${code}/receivables`, { token: ctx.token });
    expect(receivables.headers['x-total-count']).toBe('2');
    expect(receivables.body.map((r: { id: number }) => r.id)).not.toContain(early.id);
    const list = await ctx.api.call('get', `/v1/route-settlements?associateId=${associate.id}&fromDate=2026-03-01&toDate=2026-03-02`, { token: ctx.token });
    expect(list.body.map((s: { routeCode: string }) => s.routeCode)).toEqual([code]);
    const byAssociate = await ctx.api.call('get', `/v1/associates/${associate.id}/route-settlements`, { token: ctx.token });
    expect(byAssociate.body[0].summary.totalAmount).toBe(1300.25);
    expect((await ctx.api.call('get', `/v1/route-settlements/${code}`, { token: ctx.otherToken })).status).toBe(404);
    expect((await ctx.api.call('get', `/v1/associates/${associate.id}/route-settlements`, { token: ctx.otherToken })).status).toBe(403);
  });

  it('moves a receivable between route settlements when its externalRoutingCode is edited, as if issued with the new code', async () => {
    const { account, associate } = await activeAccount(ctx.api, ctx.token);
    const [first, second] = [`FIRST-${associate.id}`, `SECOND-${associate.id}`];
    for (const routeCode of [first, second]) await settle({ routeCode, date: '2026-03-02', associateId: associate.id });
    const issued = async (externalRoutingCode: string | null, associateId: number | null = associate.id) =>
      (await issue({ receivableAccountId: account.id, amount: 10, receivableType: 'INVOICE', associateId, externalRoutingCode })).body.id as number;
    const [moved, left, joined, unbound] = [await issued(first), await issued(first), await issued(null), await issued(null, null)];
    const edit = async (id: number, externalRoutingCode: string | null) =>
      (await ctx.api.call('put', `/v1/receivables/${id}`, { token: ctx.token, body: { externalRoutingCode } })).status;
    expect([await edit(moved, second), await edit(left, null), await edit(joined, first), await edit(unbound, first)]).toEqual([200, 200, 200, 200]);
    const grouped = async (code: string) => {
      const detail = (await ctx.api.call('get', `/v1/route-settlements/${code}`, { token: ctx.token })).body;
      const listed = (await ctx.api.call('get', `/v1/route-settlements/${code}/receivables`, { token: ctx.token })).body.map((r: { id: number }) => r.id);
      return [detail.summary.receivablesCount, listed.sort((a: number, b: number) => a - b)];
    };
    // A receivable with no associate is grouped under no route, whatever its code: SPEC groups the associate's.
    expect(await grouped(first)).toEqual([1, [joined]]);
    expect(await grouped(second)).toEqual([1, [moved]]);
  });
});

describe('receivable expiry', () => {
  const ctx = useTestApi();

  it('expires PENDING receivables past due, leaves the rest, and they can still be paid', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const issue = (dueDate: string) =>
      ctx.api.call('post', '/v1/receivables', {
        token: ctx.token,
        headers: key('exp'),
        body: { receivableAccountId: account.id, amount: 10, currencyCode: 'ARS', receivableType: 'INVOICE', dueDate },
      });
    const past = (await issue('2020-01-01')).body;
    const future = (await issue('2999-01-01')).body;
    const note = (
      await ctx.api.call('post', '/v1/receivables', {
        token: ctx.token,
        headers: key('exp'),
        body: {
          receivableAccountId: account.id,
          amount: 1,
          currencyCode: 'ARS',
          receivableType: 'CREDIT_NOTE',
          parentReceivableId: past.id,
          dueDate: '2020-01-01',
        },
      })
    ).body;
    expect(await ctx.api.app.receivables.expire.execute()).toBeGreaterThanOrEqual(1);
    const statusOf = async (id: number) => (await ctx.api.call('get', `/v1/receivables/${id}`, { token: ctx.token })).body.status;
    expect(await statusOf(past.id)).toBe('EXPIRED');
    expect(await statusOf(future.id)).toBe('PENDING');
    // A child past its own due date expires too (CONTRACT), and follows its parent to PAID all the same.
    expect(await statusOf(note.id)).toBe('EXPIRED');
    expect(await ctx.api.app.receivables.expire.execute()).toBe(0);
    const paid = await ctx.api.call('patch', `/v1/receivables/${past.id}/status`, { token: ctx.token, body: { status: 'PAID' } });
    expect(paid.body.status).toBe('PAID');
    expect(await statusOf(note.id)).toBe('PAID');
    const events = await ctx.api.db.knex('outbox_events').where({ type: 'receivable.expired' });
    expect(events.map((e) => e.data.receivable.id)).toEqual(expect.arrayContaining([past.id, note.id]));
  });
});
