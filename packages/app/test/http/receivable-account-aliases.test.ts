import { useTestApi } from '../support/test-api';
import { parties } from '../support/fixtures';
import { receivableAccountCalls } from '../support/receivable-account-calls';

/** Aliases: changed on an ACTIVE account, unique in any letter case, and never one the service generates for another account. */
describe('receivable account aliases', () => {
  const ctx = useTestApi();
  const { open, get } = receivableAccountCalls(ctx);

  it('changes the alias of an ACTIVE account and refuses a used or malformed one', async () => {
    const { client, associate } = await parties(ctx.api, ctx.token);
    const a = (await open({ clientId: client.id })).body;
    const b = (await open({ associateId: associate.id })).body;
    const early = await ctx.api.call('put', `/v1/receivable-accounts/${a.id}`, { token: ctx.token, body: { alias: 'too.early.alias' } });
    expect(early.body.code).toBe('invalid-status-transition');
    await ctx.api.provisionAll();
    const renamed = await ctx.api.call('put', `/v1/receivable-accounts/${a.id}`, { token: ctx.token, body: { alias: `kiosco.sol.${a.id}` } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.alias).toBe(`kiosco.sol.${a.id}`);
    const taken = await ctx.api.call('put', `/v1/receivable-accounts/${b.id}`, { token: ctx.token, body: { alias: `kiosco.sol.${a.id}` } });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('alias-already-in-use');
    expect((await ctx.api.call('put', `/v1/receivable-accounts/${b.id}`, { token: ctx.token, body: { alias: 'no spaces allowed' } })).status).toBe(400);
  });

  it('refuses an alias of the form the service generates, so the account it is generated for still gets it', async () => {
    const theirs = (await open({ clientId: (await parties(ctx.api, ctx.otherToken)).client.id }, ctx.otherToken)).body;
    await ctx.api.provisionAll();
    const mine = (await open({ clientId: (await parties(ctx.api, ctx.token)).client.id })).body;
    const generated = `cta.${String(mine.id).padStart(7, '0')}`;
    for (const alias of [generated, generated.toUpperCase(), `${generated}-2`, `main.cta.${mine.id}`]) {
      const squat = await ctx.api.call('put', `/v1/receivable-accounts/${theirs.id}`, { token: ctx.otherToken, body: { alias } });
      expect([alias, squat.status, squat.body.code]).toEqual([alias, 409, 'alias-already-in-use']);
    }
    await ctx.api.provisionAll();
    expect((await get(mine.id)).body).toMatchObject({ status: 'ACTIVE', alias: generated });
    const recased = await ctx.api.call('put', `/v1/receivable-accounts/${mine.id}`, { token: ctx.token, body: { alias: generated.toUpperCase() } });
    expect([recased.status, recased.body.alias]).toEqual([200, generated.toUpperCase()]);
  });

  it('refuses the fallback alias provisioning gives an account whose template aliases are all held', async () => {
    const theirs = (await open({ clientId: (await parties(ctx.api, ctx.otherToken)).client.id }, ctx.otherToken)).body;
    await ctx.api.provisionAll();
    const mine = (await open({ clientId: (await parties(ctx.api, ctx.token)).client.id })).body;
    const squat = await ctx.api.call('put', `/v1/receivable-accounts/${theirs.id}`, {
      token: ctx.otherToken,
      body: { alias: `RA.${String(mine.id).padStart(7, '0')}` },
    });
    expect([squat.status, squat.body.code]).toEqual([409, 'alias-already-in-use']);
  });

  it('refuses an alias another account holds in another letter case', async () => {
    const { client, associate } = await parties(ctx.api, ctx.token);
    const a = (await open({ clientId: client.id })).body;
    const b = (await open({ associateId: associate.id })).body;
    await ctx.api.provisionAll();
    await ctx.api.call('put', `/v1/receivable-accounts/${a.id}`, { token: ctx.token, body: { alias: `Kiosco.Luna.${a.id}` } });
    const taken = await ctx.api.call('put', `/v1/receivable-accounts/${b.id}`, { token: ctx.token, body: { alias: `KIOSCO.luna.${a.id}` } });
    expect([taken.status, taken.body.code]).toEqual([409, 'alias-already-in-use']);
  });
});
