import { useTestApi } from '../support/test-api';
import { key, parties } from '../support/fixtures';
import { receivableAccountCalls } from '../support/receivable-account-calls';

/**
 * Aliases: changed on an ACTIVE account, unique in any letter case, never one the service generates for another
 * account, nor one an account at any bank holds (the banking provider's directory registers each for its CVU).
 */
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

  it("refuses an alias an account at another bank holds, so another customer's payments to it still reach that account", async () => {
    // Customer 2 saves a supplier by alias: the provider's directory names the supplier's account at its bank.
    const supplier = await ctx.api.call('post', '/v1/contacts', {
      token: ctx.otherToken,
      body: { name: 'Proveedor SA', taxId: '30712345671', alias: `acme.supplier.${process.pid % 1000}` },
    });
    expect(supplier.status).toBe(201);
    const { client } = await parties(ctx.api, ctx.token);
    const mine = (await open({ clientId: client.id })).body;
    await ctx.api.provisionAll();
    const squat = await ctx.api.call('put', `/v1/receivable-accounts/${mine.id}`, { token: ctx.token, body: { alias: supplier.body.alias.toUpperCase() } });
    expect([squat.status, squat.body.code]).toEqual([409, 'alias-already-in-use']);
    expect((await get(mine.id)).body.alias).toBe(`cta.${String(mine.id).padStart(7, '0')}`);
    // The alias still names the supplier's account for whoever resolves it.
    const again = await ctx.api.call('post', '/v1/contacts', {
      token: ctx.otherToken,
      body: { name: 'Otra SA', taxId: '30712345671', alias: supplier.body.alias },
    });
    expect(again.body.code).toBe('duplicated-contact');
    const resolved = await ctx.api.call('post', '/v1/contacts', {
      token: ctx.token,
      body: { name: 'Proveedor SA', taxId: '30712345671', alias: supplier.body.alias },
    });
    expect(resolved.body.cbuCvu).toBe(supplier.body.cbuCvu);

    // A free alias is registered for the account's CVU: the provider's directory then names it for everyone.
    const free = await ctx.api.call('put', `/v1/receivable-accounts/${mine.id}`, { token: ctx.token, body: { alias: `mi.cobro.${mine.id}` } });
    expect(free.status).toBe(200);
    const paidTo = await ctx.api.call('post', '/v1/contacts', {
      token: ctx.otherToken,
      body: { name: 'Cobros SA', taxId: '30712345671', alias: `mi.cobro.${mine.id}` },
    });
    expect(paidTo.body.cbuCvu).toBe(free.body.cvu);
  });

  it('gives a new account the next of its aliases when an account at another bank holds the first', async () => {
    const { client } = await parties(ctx.api, ctx.token);
    const account = (await open({ clientId: client.id })).body;
    const generated = `cta.${String(account.id).padStart(7, '0')}`;
    // Before its CVU, someone resolves the alias the account would get: an account at another bank holds it.
    const elsewhere = await ctx.api.call('post', '/v1/contacts', { token: ctx.otherToken, body: { name: 'Ajeno SA', taxId: '30712345671', alias: generated } });
    expect(elsewhere.status).toBe(201);
    await ctx.api.provisionAll();
    expect((await get(account.id)).body).toMatchObject({ status: 'ACTIVE', alias: `${generated}-2` });
  });

  it('leaves the alias as it was when the provider cannot say whether another account holds it (502)', async () => {
    const { client } = await parties(ctx.api, ctx.token);
    const account = (await open({ clientId: client.id })).body;
    await ctx.api.provisionAll();
    const before = (await get(account.id)).body;
    const res = await ctx.api.call('put', `/v1/receivable-accounts/${account.id}`, { token: ctx.token, body: { alias: `sim-down.${account.id}` } });
    expect([res.status, res.body.code]).toEqual([502, 'external-provider-unavailable']);
    expect((await get(account.id)).body).toEqual(before);
  });

  it('holds no database connection while the provider registers an alias, under an Idempotency-Key too', async () => {
    const { client } = await parties(ctx.api, ctx.token);
    const account = (await open({ clientId: client.id })).body;
    await ctx.api.provisionAll();
    const pool = (ctx.api.db.knex.client as { pool: { numUsed(): number } }).pool;
    // The simulator hangs on a `sim-timeout` alias: the request waits on the provider while the pool is read.
    const body = { alias: `sim-timeout.${account.id}` };
    const put = ctx.api.call('put', `/v1/receivable-accounts/${account.id}`, { token: ctx.token, body, headers: key('alias') });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pool.numUsed()).toBe(0);
    // 502 or 504, as the client's attempts end: the simulator's hang ends in a 503.
    expect((await put).body.code).toMatch(/^external-provider-(timeout|unavailable)$/);
    expect((await get(account.id)).body.alias).toBe(`cta.${String(account.id).padStart(7, '0')}`);
  }, 20_000);

  it("keeps the stored alias the one the provider names for the account's CVU when changes of it race", async () => {
    const { client } = await parties(ctx.api, ctx.token);
    const account = (await open({ clientId: client.id })).body;
    await ctx.api.provisionAll();
    for (let round = 0; round < 4; round++) {
      const puts = await Promise.all(
        [1, 2, 3, 4].map((n) =>
          ctx.api.call('put', `/v1/receivable-accounts/${account.id}`, { token: ctx.token, body: { alias: `raza.${account.id}.${round}${n}` } }),
        ),
      );
      expect(puts.map((res) => res.status).filter((status) => status !== 200 && status !== 409)).toEqual([]);
      const stored = (await get(account.id)).body as { alias: string; cvu: string };
      const named = (await (await fetch(`${ctx.api.bankUrl}/v1/aliases/${stored.alias}`)).json()) as { cbuCvu: string };
      expect([stored.alias, named.cbuCvu]).toEqual([stored.alias, stored.cvu]);
    }
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
