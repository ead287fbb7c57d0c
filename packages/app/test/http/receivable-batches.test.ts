import { itRacing, useTestApi } from '../support/test-api';
import { activeAccount, currentAccountIdOf, key } from '../support/fixtures';

type Result = { index: number; status: number; receivable?: Record<string, unknown>; error?: { code: string } };

describe('receivable batches', () => {
  const ctx = useTestApi();
  const post = (items: object[], token = ctx.token) => ctx.api.call('post', '/v1/receivables/batches', { token, headers: key('batch'), body: { items } });
  const issue = (body: object) => ctx.api.call('post', '/v1/receivables', { token: ctx.token, headers: key('one'), body });
  const invoiceOn = (accountId: number, extra: object = {}) => ({
    receivableAccountId: accountId,
    amount: 10,
    currencyCode: 'ARS',
    receivableType: 'INVOICE',
    ...extra,
  });
  const childOf = (accountId: number, parentReceivableId: number, amount: number, receivableType = 'CREDIT_NOTE') => ({
    ...invoiceOn(accountId, { amount, receivableType, parentReceivableId }),
  });
  const outcome = (r: Result) => `${r.status} ${r.error?.code ?? ''}`.trim();

  /**
   * Accounts and a parent of 100.00 for a mixed batch, made afresh, and the batch's items: each rule a single
   * creation applies, some items depending on what earlier ones of the batch issued.
   */
  async function mixedBatch() {
    const { account, associate } = await activeAccount(ctx.api, ctx.token);
    const other = await activeAccount(ctx.api, ctx.token);
    const disabled = await activeAccount(ctx.api, ctx.token);
    await ctx.api.call('delete', `/v1/receivable-accounts/${disabled.account.id}`, { token: ctx.token });
    const theirs = await activeAccount(ctx.api, ctx.otherToken);
    const parent = (await issue(invoiceOn(account.id, { amount: 100 }))).body as { id: number };
    const stored = `L0-${account.id}`;
    await issue(invoiceOn(account.id, { legalNumber: stored }));
    const [current, theirCurrent] = [await currentAccountIdOf(ctx.api, 'sandbox-client'), await currentAccountIdOf(ctx.api, 'sandbox-client-2')];
    const items = [
      invoiceOn(account.id, { legalNumber: `L1-${account.id}` }),
      invoiceOn(account.id, { legalNumber: `L1-${account.id}` }),
      invoiceOn(account.id, { legalNumber: stored }),
      childOf(account.id, parent.id, 60),
      childOf(account.id, parent.id, 50),
      childOf(account.id, parent.id, 40, 'ADJUSTMENT'),
      childOf(other.account.id, parent.id, 1),
      childOf(account.id, 987654321, 1),
      invoiceOn(account.id, { receivableType: 'CREDIT_NOTE' }),
      invoiceOn(account.id, { associateId: associate.id }),
      invoiceOn(account.id, { associateId: other.associate.id }),
      invoiceOn(account.id, { associateId: associate.id }),
      invoiceOn(other.account.id, { associateId: associate.id }),
      invoiceOn(other.account.id, { associateId: other.associate.id }),
      invoiceOn(account.id, { currencyCode: 'USD' }),
      invoiceOn(account.id, { clientId: other.client.id }),
      invoiceOn(account.id, { clientId: theirs.client.id }),
      invoiceOn(disabled.account.id),
      invoiceOn(theirs.account.id),
      invoiceOn(987654321),
      invoiceOn(current),
      invoiceOn(theirCurrent),
      invoiceOn(account.id, { amount: 'lots' }),
      invoiceOn(account.id, { description: 'last', dueDate: '2026-12-31' }),
    ];
    return { items, account, associate };
  }

  it('answers every item of a mixed batch as it would have been answered posted alone, in order, and stores only the created ones', async () => {
    const alone = await mixedBatch();
    const one: string[] = [];
    for (const item of alone.items) {
      const res = await issue(item);
      one.push(`${res.status} ${res.status === 201 ? '' : res.body.code}`.trim());
    }
    const batch = await mixedBatch();
    const res = await post(batch.items);
    expect(res.status).toBe(200);
    const results = res.body.results as Result[];
    expect(results.map((r) => r.index)).toEqual(batch.items.map((_, i) => i));
    expect(results.map(outcome)).toEqual(one);
    expect(one).toEqual([
      '201',
      '409 duplicated-legal-number',
      '409 duplicated-legal-number',
      '201',
      '422 child-receivables-exceed-parent-amount',
      '201',
      '422 parent-receivable-different-account',
      '404 resource-not-found',
      '422 missing-parent-receivable',
      // Neither account has an associate yet: items 9 and 12 bind one, which the items after them see.
      '201',
      '422 receivable-account-associate-conflict',
      '201',
      '201',
      '422 receivable-account-associate-conflict',
      '422 unmatching-receivable-currency-code',
      '422 unmatching-receivable-client-id',
      '403 resource-not-accessible',
      '422 receivable-account-not-active',
      '403 resource-not-accessible',
      '404 resource-not-found',
      '422 current-account-not-receivable-enabled',
      '403 resource-not-accessible',
      '400 validation',
      '201',
    ]);
    const created = results.filter((r) => r.status === 201).map((r) => r.receivable as { id: number; associateId: number | null });
    expect(created.map((r) => r.id)).toEqual([...created.map((r) => r.id)].sort((a, b) => a - b));
    expect([9, 11, 12].map((i) => results[i].receivable?.associateId)).toEqual([batch.associate.id, batch.associate.id, batch.associate.id]);
    expect(results[23].receivable).toMatchObject({ description: 'last', dueDate: '2026-12-31', status: 'PENDING', clientId: expect.any(Number) });
    const ids = created.map((r) => r.id);
    const rows = await ctx.api.db.knex('receivables').whereIn('id', ids).count({ n: '*' });
    expect(rows).toEqual([{ n: String(ids.length) }]);
    const events = await ctx.api.db.knex('outbox_events').where({ type: 'receivable.created' }).whereRaw("(data->'receivable'->>'id')::bigint = ANY(?)", [ids]);
    expect(events).toHaveLength(ids.length);
    const bound = (await ctx.api.call('get', `/v1/receivable-accounts/${batch.account.id}`, { token: ctx.token })).body;
    expect(bound.owner.type).toBe('CLIENT_AND_ASSOCIATE');
  });

  it('lets the first of repeated legalNumbers inside one batch through and answers the repeats 409', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const items = ['A', 'B', 'A', 'C', 'B', 'A'].map((n) => invoiceOn(account.id, { legalNumber: `D-${account.id}-${n}` }));
    const res = await post(items);
    expect((res.body.results as Result[]).map(outcome)).toEqual([
      '201',
      '201',
      '409 duplicated-legal-number',
      '201',
      '409 duplicated-legal-number',
      '409 duplicated-legal-number',
    ]);
  });

  it('stores nothing for a batch whose every item fails, and answers each', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const res = await post([invoiceOn(account.id, { amount: 0 }), invoiceOn(987654321)]);
    expect(res.status).toBe(200);
    expect((res.body.results as Result[]).map(outcome)).toEqual(['400 validation', '404 resource-not-found']);
    expect(await ctx.api.db.knex('receivables').where({ receivable_account_id: account.id }).count({ n: '*' })).toEqual([{ n: '0' }]);
  });

  it('answers an item with text it cannot store or a number it cannot read exactly as that item’s 400, creating the others', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const items = [
      invoiceOn(account.id, { legalNumber: `T-${account.id}-1` }),
      invoiceOn(account.id, { description: 'a\u0000b' }),
      invoiceOn(account.id, { description: 'LONE' }),
      invoiceOn(account.id, { amount: 'INEXACT' }),
      invoiceOn(account.id, { legalNumber: `T-${account.id}-2`, externalRoutingCode: 'RT\u0000', description: 'LONE' }),
      invoiceOn(account.id, { legalNumber: `T-${account.id}-3` }),
    ];
    // A lone surrogate and a number past a double's digits can only be written in the JSON text itself.
    const json = (inexact: string) => JSON.stringify({ items }).replaceAll('"LONE"', '"\\ud800"').replace('"INEXACT"', inexact);
    const send = (body: string, headers = key('unreadable')) =>
      ctx.api.call('post', '/v1/receivables/batches', { token: ctx.token, headers: { 'content-type': 'application/json', ...headers }, body });
    const headers = key('unreadable');
    const res = await send(json('10.0000000000000001'), headers);
    expect(res.status).toBe(200);
    const results = res.body.results as Array<Result & { error?: { invalidParams?: Array<{ name: string }> } }>;
    expect(results.map((r) => [r.index, r.status, r.error?.invalidParams?.map((p) => p.name)])).toEqual([
      [0, 201, undefined],
      [1, 400, ['description']],
      [2, 400, ['description']],
      [3, 400, ['amount']],
      [4, 400, ['externalRoutingCode', 'description']],
      [5, 201, undefined],
    ]);
    expect(await ctx.api.db.knex('receivables').where({ receivable_account_id: account.id }).count({ n: '*' })).toEqual([{ n: '2' }]);
    // The same key with another unreadable number is another body: refused as the key's reuse, not replayed.
    expect((await send(json('10.0000000000000002'), headers)).body.code).toBe('idempotency-key-reuse');
  });

  itRacing('gives a legalNumber two concurrent batches both claim to one of them, the other item answered 409 and every other item created', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    for (let round = 0; round < 3; round++) {
      // Shared numbers in opposite orders, so the batches also wait on each other both ways.
      const shared = [1, 2, 3, 4, 5].map((n) => `S-${account.id}-${round}-${n}`);
      const own = (side: string) => Array.from({ length: 200 }, (_, i) => invoiceOn(account.id, { legalNumber: `O-${account.id}-${round}-${side}-${i}` }));
      const first = [...shared.map((legalNumber) => invoiceOn(account.id, { legalNumber })), ...own('a')];
      const second = [...own('b'), ...[...shared].reverse().map((legalNumber) => invoiceOn(account.id, { legalNumber }))];
      const [a, b] = await Promise.all([post(first), post(second)]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const byNumber = new Map<string, string[]>();
      for (const [items, res] of [
        [first, a],
        [second, b],
      ] as const) {
        (res.body.results as Result[]).forEach((r, i) => {
          const legalNumber = (items[i] as unknown as { legalNumber: string }).legalNumber;
          byNumber.set(legalNumber, [...(byNumber.get(legalNumber) ?? []), outcome(r)]);
        });
      }
      for (const legalNumber of shared) expect(byNumber.get(legalNumber)!.sort()).toEqual(['201', '409 duplicated-legal-number']);
      for (const [legalNumber, outcomes] of byNumber) if (!shared.includes(legalNumber)) expect(outcomes).toEqual(['201']);
      const stored = await ctx.api.db
        .knex('receivables')
        .where({ customer_id: (await ctx.api.db.knex('receivable_accounts').where({ id: account.id }).first()).customer_id })
        .whereIn('legal_number', shared)
        .count({ n: '*' });
      expect(stored).toEqual([{ n: String(shared.length) }]);
    }
  });
});
