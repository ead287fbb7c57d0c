import { composeCvu } from '@rcs/domain';
import { validTaxId } from '@rcs/domain/testing';
import { activeAccount } from '../support/fixtures';
import { currentAccountsOf } from '../support/transfer-fixtures';
import { itRacing, useTestApi } from '../support/test-api';

const TAX_ID = validTaxId('30', 71234567);
/** Banco Galicia (007) and Mercado Pago (CVU 000 0003) accounts with valid check digits. */
const galicia = (n: number) => composeCvu('0070999', BigInt(n));
const mercadoPago = (n: number) => composeCvu('0000003', 9_000_000_000n + BigInt(n));

describe('contacts (recipients)', () => {
  // A provider answer slower than 200 ms is a timeout; the simulator's slow answers take 1 s.
  const ctx = useTestApi({ BANK_PROVIDER_TIMEOUT_MS: '200' });
  const post = (body: unknown, token = ctx.token) => ctx.api.call('post', '/v1/contacts', { token, body });
  const list = async (query = '') => (await ctx.api.call('get', `/v1/contacts${query}`, { token: ctx.token })).body as Array<{ id: number }>;
  const aContact = (extra: Record<string, unknown>) => ({ name: 'Proveedor Norte SA', taxId: TAX_ID, ...extra });

  it('saves a recipient by CBU with 201, Location and the bank behind it', async () => {
    const res = await post(aContact({ cbuCvu: galicia(1) }));
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/v1/contacts/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'Proveedor Norte SA',
      taxId: TAX_ID,
      cbuCvu: galicia(1),
      alias: null,
      entity: 'Banco de Galicia y Buenos Aires',
      creationDate: expect.any(String),
      modificationDate: expect.any(String),
    });
    expect((await ctx.api.call('get', res.headers.location, { token: ctx.token })).body).toEqual(res.body);
  });

  it('names the wallet behind a CVU from its PSP code, and an unknown code stably', async () => {
    expect((await post(aContact({ cbuCvu: mercadoPago(2) }))).body.entity).toBe('Mercado Pago');
    expect((await post(aContact({ cbuCvu: composeCvu('0009876', 3n) }))).body.entity).toBe('Unknown entity (PSP code 9876)');
  });

  it('saves a recipient by alias, filling cbuCvu and entity from the provider', async () => {
    const res = await post(aContact({ alias: 'Norte.Pagos' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ alias: 'Norte.Pagos', cbuCvu: expect.stringMatching(/^\d{22}$/), entity: expect.any(String) });
  });

  it("saves a recipient by the alias of an account of this service with that account's CVU, not the provider's answer", async () => {
    const { account } = await activeAccount(ctx.api, ctx.otherToken);
    const theirs = (await ctx.api.call('get', `/v1/receivable-accounts/${account.id}`, { token: ctx.otherToken })).body;
    const res = await post(aContact({ alias: theirs.alias.toUpperCase() }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ alias: theirs.alias.toUpperCase(), cbuCvu: theirs.cvu });
  });

  it('refuses a recipient no transfer could pay, as a transfer to it is refused, on POST and PUT, and keeps none', async () => {
    const own = await currentAccountsOf(ctx.api, ctx.token);
    const theirs = await currentAccountsOf(ctx.api, ctx.otherToken);
    const { account } = await activeAccount(ctx.api, ctx.token);
    const ownReceivable = (await ctx.api.call('get', `/v1/receivable-accounts/${account.id}`, { token: ctx.token })).body;
    const before = (await list()).length;
    for (const [destination, code, member] of [
      [{ cbuCvu: own.main.cvu }, 'validation', 'cbuCvu'],
      [{ alias: theirs.main.alias }, 'validation', 'alias'],
      [{ cbuCvu: ownReceivable.cvu }, 'receivable-account-not-transfer-enabled', undefined],
    ] as const) {
      const refused = (await post(aContact(destination))).body;
      expect(refused).toMatchObject({ code, detail: expect.stringMatching(/account/) });
      expect(refused.invalidParams?.[0]?.name).toBe(member);
    }
    expect((await list()).length).toBe(before);
    const contact = (await post(aContact({ cbuCvu: galicia(17) }))).body;
    const replaced = await ctx.api.call('put', `/v1/contacts/${contact.id}`, { token: ctx.token, body: aContact({ cbuCvu: own.sub.cvu }) });
    expect(replaced.body.code).toBe('validation');
    expect((await ctx.api.call('get', `/v1/contacts/${contact.id}`, { token: ctx.token })).body.cbuCvu).toBe(galicia(17));
  });

  it('replays a save sent again under its Idempotency-Key instead of refusing it as a duplicate', async () => {
    const send = () =>
      ctx.api.call('post', '/v1/contacts', { token: ctx.token, body: aContact({ alias: 'replay.alias' }), headers: { 'Idempotency-Key': 'contact-replay' } });
    const first = await send();
    const again = await send();
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await list('?alias=replay.alias')).toHaveLength(1);
  });

  it('refuses a used Idempotency-Key with another body as 409 before asking the provider, on creation and replacement', async () => {
    const under = (method: 'post' | 'put', url: string, body: object, key: string) =>
      ctx.api.call(method, url, { token: ctx.token, body, headers: { 'Idempotency-Key': key } });
    const first = await under('post', '/v1/contacts', aContact({ alias: 'reuse.first' }), 'contact-reuse');
    const replaced = await under('put', first.headers.location, aContact({ cbuCvu: galicia(7) }), 'contact-reuse-put');
    expect([first.status, replaced.status]).toEqual([201, 200]);
    // A provider that is down (502) or knows no such alias (404) would answer otherwise: it is never asked.
    for (const alias of ['sim-down.ord', 'sim-unknown.ord']) {
      const created = await under('post', '/v1/contacts', aContact({ alias }), 'contact-reuse');
      const replacing = await under('put', first.headers.location, aContact({ alias }), 'contact-reuse-put');
      expect([created.status, created.body.code, replacing.status, replacing.body.code]).toEqual([409, 'idempotency-key-reuse', 409, 'idempotency-key-reuse']);
    }
    // The same body in another member order is not the same bytes: its replay comes from the stored answer.
    const again = await under('post', '/v1/contacts', { alias: 'reuse.first', taxId: TAX_ID, name: 'Proveedor Norte SA' }, 'contact-reuse');
    expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([201, 'true', first.body]);
    expect((await ctx.api.call('get', first.headers.location, { token: ctx.token })).body).toEqual(replaced.body);
  });

  it('accepts cbuCvu and alias of the same account, and refuses an alias of another account with 400 on alias', async () => {
    const resolved = (await post(aContact({ alias: 'ambos.iguales' }))).body;
    await ctx.api.call('delete', `/v1/contacts/${resolved.id}`, { token: ctx.token });
    expect((await post(aContact({ alias: 'ambos.iguales', cbuCvu: resolved.cbuCvu }))).status).toBe(201);
    const mismatch = await post(aContact({ alias: 'otro.alias', cbuCvu: galicia(4) }));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.invalidParams).toEqual([{ name: 'alias', reason: expect.any(String) }]);
  });

  it('answers 404 for an alias no account has, and stores nothing but the refusal under its key', async () => {
    const headers = { 'Idempotency-Key': 'contact-unknown-alias' };
    const res = await ctx.api.call('post', '/v1/contacts', { token: ctx.token, body: aContact({ alias: 'sim-unknown.1' }), headers });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('resource-not-found');
    expect(await list('?alias=sim-unknown.1')).toEqual([]);
    // A business refusal is kept under its key like any other: another body under it is the key's reuse.
    const other = await ctx.api.call('post', '/v1/contacts', { token: ctx.token, body: aContact({ alias: 'sim-unknown.2' }), headers });
    expect([other.status, other.body.code]).toEqual([409, 'idempotency-key-reuse']);
  });

  it.each([
    ['down', 'sim-down.1', 502, 'external-provider-unavailable', 'HTTP_503'],
    ['slow', 'sim-timeout.1', 504, 'external-provider-timeout', 'TIMEOUT'],
  ])(
    'answers a provider that is %s with %s and providerError, and stores nothing',
    async (_what, alias, status, code, providerCode) => {
      const res = await ctx.api.call('post', '/v1/contacts', {
        token: ctx.token,
        body: aContact({ alias }),
        headers: { 'Idempotency-Key': `contact-${alias}` },
      });
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ code, providerError: { code: providerCode, detail: expect.any(String) } });
      expect(await list(`?alias=${alias}`)).toEqual([]);
    },
    15_000,
  );

  it.each([
    ['neither cbuCvu nor alias', {}, ['cbuCvu', 'alias']],
    ['a CBU with a wrong check digit', { cbuCvu: galicia(5).slice(0, 21) + ((Number(galicia(5)[21]) + 1) % 10) }, ['cbuCvu']],
    ['an alias too short', { alias: 'abc' }, ['alias']],
    ['an alias with a space', { alias: 'norte pagos' }, ['alias']],
    ['a bad taxId', { cbuCvu: galicia(6), taxId: '30712345670' }, ['taxId']],
    ['a missing name', { cbuCvu: galicia(6), name: undefined }, ['name']],
  ])('refuses %s with 400 validation naming the fields', async (_what, extra, fields) => {
    const res = await post(aContact(extra));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation');
    expect(res.body.invalidParams.map((p: { name: string }) => p.name)).toEqual(fields);
  });

  it('refuses a second recipient with the same CBU/CVU, or the same alias in another case, with 409 duplicated-contact naming the one saved', async () => {
    const saved = (await post(aContact({ cbuCvu: galicia(77) }))).body;
    const sameCbu = await post(aContact({ cbuCvu: galicia(77), name: 'Other', taxId: validTaxId('20', 12345678) }));
    expect(sameCbu.status).toBe(409);
    expect(sameCbu.body).toMatchObject({ code: 'duplicated-contact', existingResourceId: saved.id });
    const byAlias = (await post(aContact({ alias: 'unico.alias' }))).body;
    expect((await post(aContact({ alias: 'UNICO.ALIAS' }))).body).toMatchObject({ code: 'duplicated-contact', existingResourceId: byAlias.id });
    const renamed = await ctx.api.call('put', `/v1/contacts/${saved.id}`, { token: ctx.token, body: aContact({ alias: 'Unico.Alias' }) });
    expect(renamed.body).toMatchObject({ code: 'duplicated-contact', existingResourceId: byAlias.id });
  });

  itRacing('lets one of two concurrent saves of one CBU win; the other gets 409', async () => {
    const answers = await Promise.all([0, 1].map((i) => post(aContact({ cbuCvu: galicia(8), name: `Racer ${i}` }))));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect((await list()).filter((c) => (c as unknown as { cbuCvu: string }).cbuCvu === galicia(8))).toHaveLength(1);
  });

  it('replaces a recipient with PUT, and refuses taking another recipient’s CBU', async () => {
    const contact = (await post(aContact({ cbuCvu: galicia(9) }))).body;
    await post(aContact({ cbuCvu: galicia(10) }));
    const replaced = await ctx.api.call('put', `/v1/contacts/${contact.id}`, {
      token: ctx.token,
      body: { name: 'Renamed SA', taxId: TAX_ID, cbuCvu: mercadoPago(9) },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      id: contact.id,
      name: 'Renamed SA',
      cbuCvu: mercadoPago(9),
      entity: 'Mercado Pago',
      creationDate: contact.creationDate,
    });
    const taken = await ctx.api.call('put', `/v1/contacts/${contact.id}`, { token: ctx.token, body: { name: 'x', taxId: TAX_ID, cbuCvu: galicia(10) } });
    expect(taken.status).toBe(409);
  });

  it('takes a recipient back as it was read (alias null) on PUT', async () => {
    const contact = (await post(aContact({ cbuCvu: galicia(16) }))).body;
    const { name, taxId, cbuCvu, alias } = contact;
    const replaced = await ctx.api.call('put', `/v1/contacts/${contact.id}`, { token: ctx.token, body: { name, taxId, cbuCvu, alias } });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ cbuCvu, alias: null });
  });

  it('deletes a recipient with 204, then it is 404 and its CBU can be saved again', async () => {
    const contact = (await post(aContact({ cbuCvu: galicia(11) }))).body;
    const deleted = await ctx.api.call('delete', `/v1/contacts/${contact.id}`, { token: ctx.token });
    expect(deleted.status).toBe(204);
    expect((await ctx.api.call('get', `/v1/contacts/${contact.id}`, { token: ctx.token })).status).toBe(404);
    expect((await ctx.api.call('delete', `/v1/contacts/${contact.id}`, { token: ctx.token })).status).toBe(404);
    expect((await post(aContact({ cbuCvu: galicia(11) }))).status).toBe(201);
  });

  it("answers 403 resource-not-accessible for another customer's recipient, on every route, and changes nothing", async () => {
    const theirs = (await post(aContact({ cbuCvu: galicia(12) }), ctx.otherToken)).body;
    const path = `/v1/contacts/${theirs.id}`;
    const answers = [
      await ctx.api.call('get', path, { token: ctx.token }),
      await ctx.api.call('put', path, { token: ctx.token, body: aContact({ cbuCvu: galicia(13) }) }),
      await ctx.api.call('delete', path, { token: ctx.token }),
    ];
    expect(answers.map((a) => [a.status, a.body.code])).toEqual(Array(3).fill([403, 'resource-not-accessible']));
    expect((await ctx.api.call('get', path, { token: ctx.otherToken })).body).toEqual(theirs);
    expect(await list(`?taxId=${TAX_ID}`)).not.toContainEqual(expect.objectContaining({ id: theirs.id }));
  });

  it('lists newest first, filtered by taxId and alias (any case), with X-Total-Count', async () => {
    const taxId = validTaxId('20', 33000000);
    const first = (await post({ name: 'A', taxId, cbuCvu: galicia(14) })).body;
    const second = (await post({ name: 'B', taxId, alias: 'Filtro.Alias' })).body;
    const res = await ctx.api.call('get', `/v1/contacts?taxId=${taxId}&count=1`, { token: ctx.token });
    expect(res.headers['x-total-count']).toBe('2');
    expect(res.body.map((c: { id: number }) => c.id)).toEqual([second.id]);
    expect((await list(`?alias=filtro.alias`)).map((c) => c.id)).toEqual([second.id]);
    expect((await list(`?taxId=${taxId}&page=2&count=1`)).map((c) => c.id)).toEqual([first.id]);
  });

  it('needs contacts:read to list and contacts:write to save', async () => {
    const customerId = (await ctx.api.call('get', '/v1/me', { token: ctx.token })).body.customerId;
    const token = await ctx.api.login(await ctx.api.app.credentials.create.execute({ customerId, scopes: ['contacts:read'] }));
    expect((await ctx.api.call('get', '/v1/contacts', { token })).status).toBe(200);
    const refused = await post(aContact({ cbuCvu: galicia(15) }), token);
    expect([refused.status, refused.body.code]).toEqual([403, 'insufficient-scope']);
  });
});
