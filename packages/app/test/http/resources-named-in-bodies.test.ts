import { useTestApi } from '../support/test-api';
import { activeAccount, key, parties } from '../support/fixtures';

/** CONTRACT: another customer's resource named in a body field is 403 resource-not-accessible, and no effect. */
describe("another customer's resources named in a request body", () => {
  const ctx = useTestApi();
  const invoiceOn = (accountId: number, extra: object) => ({
    receivableAccountId: accountId,
    amount: 10,
    currencyCode: 'ARS',
    receivableType: 'INVOICE',
    ...extra,
  });
  const receivablesOn = async (accountId: number) =>
    Number((await ctx.api.db.knex('receivables').where({ receivable_account_id: accountId }).count({ n: '*' }))[0].n);

  it("answers a receivable naming another customer's clientId with 403 resource-not-accessible and writes nothing", async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const theirs = await parties(ctx.api, ctx.otherToken);
    const res = await ctx.api.call('post', '/v1/receivables', {
      token: ctx.token,
      headers: key('body'),
      body: invoiceOn(account.id, { clientId: theirs.client.id }),
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('resource-not-accessible');
    expect(await receivablesOn(account.id)).toBe(0);
  });

  it("answers a receivable naming another customer's associateId on an account bound to an associate with 403 resource-not-accessible", async () => {
    const { client, associate } = await parties(ctx.api, ctx.token);
    const account = (
      await ctx.api.call('post', '/v1/receivable-accounts', {
        token: ctx.token,
        headers: key('body'),
        body: { clientId: client.id, associateId: associate.id },
      })
    ).body;
    const theirs = await parties(ctx.api, ctx.otherToken);
    const res = await ctx.api.call('post', '/v1/receivables', {
      token: ctx.token,
      headers: key('body'),
      body: invoiceOn(account.id, { associateId: theirs.associate.id }),
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('resource-not-accessible');
    expect(await receivablesOn(account.id)).toBe(0);
  });

  it("answers batch items naming another customer's client or associate with 403 each, receivables and accounts alike", async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const theirs = await parties(ctx.api, ctx.otherToken);
    const receivables = await ctx.api.call('post', '/v1/receivables/batches', {
      token: ctx.token,
      headers: key('body'),
      body: { items: [invoiceOn(account.id, { clientId: theirs.client.id }), invoiceOn(account.id, { associateId: theirs.associate.id })] },
    });
    const accounts = await ctx.api.call('post', '/v1/receivable-accounts/batches', {
      token: ctx.token,
      headers: key('body'),
      body: { items: [{ clientId: theirs.client.id }, { associateId: theirs.associate.id }] },
    });
    for (const res of [receivables, accounts]) {
      expect(res.body.results.map((r: { status: number; error: { code: string } }) => `${r.status} ${r.error.code}`)).toEqual([
        '403 resource-not-accessible',
        '403 resource-not-accessible',
      ]);
    }
    expect(await receivablesOn(account.id)).toBe(0);
  });
});
