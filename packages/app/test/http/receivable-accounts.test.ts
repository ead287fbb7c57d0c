import { isValidCbuCvu } from '@rcs/domain';
import { itRacing, useTestApi } from '../support/test-api';
import { key, parties } from '../support/fixtures';
import { receivableAccountCalls } from '../support/receivable-account-calls';

describe('receivable accounts', () => {
  const ctx = useTestApi();
  const { open, get } = receivableAccountCalls(ctx);

  it('opens a CLIENT account in PROVISIONING and activates it with a valid CVU and generated alias', async () => {
    const { client } = await parties(ctx.api, ctx.token);
    const res = await open({ clientId: client.id });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/v1/receivable-accounts/${res.body.id}`);
    expect(res.body).toMatchObject({
      status: 'PROVISIONING',
      cvu: null,
      alias: null,
      currencyCode: 'ARS',
      owner: { type: 'CLIENT', id: client.id },
      stats: { pendingAmount: 0 },
    });
    await ctx.api.provisionAll();
    const active = (await get(res.body.id)).body;
    expect(active.status).toBe('ACTIVE');
    expect(isValidCbuCvu(active.cvu)).toBe(true);
    expect(active.alias).toBe(`cta.${String(res.body.id).padStart(7, '0')}`);
    const events = await ctx.api.db.knex('outbox_events').where({ type: 'receivable-account.activated' });
    expect(events.map((e) => e.data.receivableAccount.id)).toContain(res.body.id);
  });

  it('shows each owner type, and names and tax ids with expand=owner', async () => {
    const { client, associate } = await parties(ctx.api, ctx.token);
    const byClient = (await open({ clientId: client.id })).body;
    const byAssociate = (await open({ associateId: associate.id })).body;
    const byBoth = (await open({ clientId: client.id, associateId: associate.id })).body;
    expect(byAssociate.owner).toEqual({ type: 'ASSOCIATE', id: associate.id });
    expect(byBoth.owner).toEqual({ type: 'CLIENT_AND_ASSOCIATE', clientId: client.id, associateId: associate.id });
    expect((await get(byClient.id, '?expand=owner')).body.owner).toEqual({
      type: 'CLIENT',
      id: client.id,
      displayName: client.businessName,
      taxId: client.taxId,
    });
    expect((await get(byAssociate.id, '?expand=owner')).body.owner).toEqual({
      type: 'ASSOCIATE',
      id: associate.id,
      displayName: `Rosa ${associate.lastName}`,
      taxId: associate.taxId,
    });
    expect((await get(byBoth.id, '?expand=owner')).body.owner).toEqual({
      type: 'CLIENT_AND_ASSOCIATE',
      clientId: client.id,
      associateId: associate.id,
      client: { displayName: client.businessName, taxId: client.taxId, branchExternalCode: client.branchExternalCode },
      associate: { displayName: `Rosa ${associate.lastName}`, taxId: associate.taxId },
    });
    expect((await get(byClient.id, '?expand=everything')).status).toBe(400);
  });

  it('requires an Idempotency-Key and an owner', async () => {
    const noKey = await ctx.api.call('post', '/v1/receivable-accounts', { token: ctx.token, body: { clientId: 1 } });
    expect(noKey.status).toBe(400);
    expect(noKey.body.invalidParams[0].name).toBe('Idempotency-Key');
    const noOwner = await open({});
    expect(noOwner.status).toBe(422);
    expect(noOwner.body.code).toBe('receivable-account-requires-owner');
    expect((await open({ clientId: 'abc' })).body.invalidParams[0].name).toBe('clientId');
    expect((await open({ clientId: 1, currencyCode: 'USD' })).body.invalidParams[0].name).toBe('currencyCode');
  });

  it('answers a second account for the same owner with 409 and the existing id', async () => {
    const { client } = await parties(ctx.api, ctx.token);
    const first = await open({ clientId: client.id });
    const second = await open({ clientId: client.id });
    expect([first.status, second.status]).toEqual([201, 409]);
    expect(second.body).toMatchObject({ code: 'receivable-account-already-exists', existingResourceId: first.body.id });
  });

  itRacing('opens one account for an owner when several requests ask at once, and answers the others 409 with its id', async () => {
    const { client } = await parties(ctx.api, ctx.token);
    const results = await Promise.all(Array.from({ length: 5 }, () => open({ clientId: client.id })));
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ code: 'receivable-account-already-exists', existingResourceId: created[0].body.id });
    }
  });

  itRacing('opens accounts and issues receivables for one client and associate at once without deadlocking', async () => {
    // Opening locks the client, then checks the associate; issuing checks the associate, then its insert's foreign
    // key reads the client: each used to hold what the other waited for.
    const answers: Array<{ status: number; body?: { code?: string } }> = [];
    for (let round = 0; round < 4; round++) {
      const { client, associate } = await parties(ctx.api, ctx.token);
      const account = (await open({ clientId: client.id })).body;
      await ctx.api.provisionAll();
      const issue = () =>
        ctx.api.call('post', '/v1/receivables', {
          token: ctx.token,
          body: { receivableAccountId: account.id, amount: 1, currencyCode: 'ARS', receivableType: 'INVOICE', associateId: associate.id },
          headers: key(`bind-${round}`),
        });
      answers.push(...(await Promise.all([issue(), open({ clientId: client.id, associateId: associate.id }), issue(), open({ associateId: associate.id })])));
    }
    // Which of the binding and the new account wins is a race; a deadlock (409 concurrent-modification) or a 5xx is not.
    const outcomes = answers.map((a) => `${a.status} ${a.body?.code ?? ''}`);
    expect(outcomes.filter((o) => o.startsWith('5') || o.endsWith('concurrent-modification'))).toEqual([]);
  });

  it("refuses another customer's or a missing owner, and a DISABLED associate", async () => {
    const { client, associate } = await parties(ctx.api, ctx.token);
    expect((await open({ clientId: client.id }, ctx.otherToken)).body.code).toBe('resource-not-accessible');
    expect((await open({ clientId: 987654321 })).status).toBe(404);
    await ctx.api.call('delete', `/v1/associates/${associate.id}`, { token: ctx.token });
    const res = await open({ associateId: associate.id });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('associate-disabled');
  });

  it('answers a PUT naming the DISABLED associate the account is already bound to with 422 associate-disabled', async () => {
    const { client, associate } = await parties(ctx.api, ctx.token);
    const account = (await open({ clientId: client.id, associateId: associate.id })).body;
    await ctx.api.call('delete', `/v1/associates/${associate.id}`, { token: ctx.token });
    const res = await ctx.api.call('put', `/v1/receivable-accounts/${account.id}`, { token: ctx.token, body: { associateId: associate.id } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('associate-disabled');
  });

  it('refuses an owner type the customer has not enabled with 422 owner-type-not-supported', async () => {
    const { clientId, clientSecret } = await ctx.api.app.customers.create.execute({ name: `Clients only ${Date.now()}`, enabledOwnerTypes: ['CLIENT'] });
    const token = await ctx.api.login({ clientId, clientSecret });
    const { client, associate } = await parties(ctx.api, token);
    const res = await open({ associateId: associate.id }, token);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('owner-type-not-supported');

    // Binding an associate to a CLIENT account would make it CLIENT_AND_ASSOCIATE, whichever route binds it.
    const account = (await open({ clientId: client.id }, token)).body;
    const receivable = { receivableAccountId: account.id, amount: 10, currencyCode: 'ARS', receivableType: 'INVOICE', associateId: associate.id };
    const put = await ctx.api.call('put', `/v1/receivable-accounts/${account.id}`, { token, body: { associateId: associate.id } });
    const single = await ctx.api.call('post', '/v1/receivables', { token, body: receivable, headers: key('owner-type') });
    const batch = await ctx.api.call('post', '/v1/receivables/batches', { token, body: { items: [receivable] }, headers: key('owner-type') });
    expect([put.status, put.body.code, single.status, single.body.code]).toEqual([422, 'owner-type-not-supported', 422, 'owner-type-not-supported']);
    expect(batch.body.results[0]).toMatchObject({ status: 422, error: { code: 'owner-type-not-supported' } });
    expect((await ctx.api.call('get', `/v1/receivable-accounts/${account.id}`, { token })).body.owner).toEqual({ type: 'CLIENT', id: client.id });
    expect(await ctx.api.db.knex('receivables').where({ receivable_account_id: account.id }).count()).toEqual([{ count: '0' }]);
  });

  it('looks accounts up by client taxId, answering no match with 204 and no body', async () => {
    const { client } = await parties(ctx.api, ctx.token);
    const account = (await open({ clientId: client.id })).body;
    const provisioning = await ctx.api.call('get', `/v1/receivable-accounts?clientTaxId=${client.taxId}`, { token: ctx.token });
    expect(provisioning.status).toBe(204);
    expect(provisioning.headers['x-total-count']).toBe('0');
    expect(provisioning.text).toBe('');
    await ctx.api.provisionAll();
    const found = await ctx.api.call(
      'get',
      `/v1/receivable-accounts?clientTaxId=${client.taxId}&branchExternalCode=${client.branchExternalCode}&expand=owner`,
      { token: ctx.token },
    );
    expect(found.status).toBe(200);
    expect(found.body.map((a: { id: number }) => a.id)).toEqual([account.id]);
    expect(found.body[0].owner.displayName).toBe(client.businessName);
    const plainEmpty = await ctx.api.call('get', '/v1/receivable-accounts?cvu=0000000000000000000000', { token: ctx.token });
    expect(plainEmpty.status).toBe(200);
    expect(plainEmpty.body).toEqual([]);
  });

  it.each(['associateId', 'alias'])('refuses %s null with 400 validation naming it, the account left as it was', async (member) => {
    const { client, associate } = await parties(ctx.api, ctx.token);
    const account = (await open({ clientId: client.id, associateId: associate.id })).body;
    await ctx.api.provisionAll();
    const before = (await get(account.id)).body;
    const res = await ctx.api.call('put', `/v1/receivable-accounts/${account.id}`, { token: ctx.token, body: { [member]: null } });
    expect(res.status).toBe(400);
    expect(res.body.invalidParams).toEqual([{ name: member, reason: 'must not be null' }]);
    expect((await get(account.id)).body).toEqual(before);
  });

  it('binds an associate afterwards, and refuses replacing it once the CVU is active', async () => {
    const { client, associate } = await parties(ctx.api, ctx.token);
    const other = (await parties(ctx.api, ctx.token)).associate;
    const account = (await open({ clientId: client.id })).body;
    const bound = await ctx.api.call('put', `/v1/receivable-accounts/${account.id}`, { token: ctx.token, body: { associateId: associate.id } });
    expect(bound.body.owner).toEqual({ type: 'CLIENT_AND_ASSOCIATE', clientId: client.id, associateId: associate.id });
    await ctx.api.provisionAll();
    const replaced = await ctx.api.call('put', `/v1/receivable-accounts/${account.id}`, { token: ctx.token, body: { associateId: other.id } });
    expect(replaced.status).toBe(422);
    expect(replaced.body.code).toBe('receivable-account-owner-immutable');
    const second = (await open({ clientId: client.id })).body;
    const duplicate = await ctx.api.call('put', `/v1/receivable-accounts/${second.id}`, { token: ctx.token, body: { associateId: associate.id } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ code: 'receivable-account-already-exists', existingResourceId: account.id });
    // Replacing the active account's associate by one another account of its client holds: the account's own rule
    // (SPEC's 422) comes before the other account's pair.
    const pairedElsewhere = (await open({ clientId: client.id, associateId: other.id })).body;
    expect(pairedElsewhere.id).toBeDefined();
    const taken = await ctx.api.call('put', `/v1/receivable-accounts/${account.id}`, { token: ctx.token, body: { associateId: other.id } });
    expect([taken.status, taken.body.code]).toEqual([422, 'receivable-account-owner-immutable']);
  });

  it('refuses a PUT that changes what the account is (client, owner, currency) with 400 naming each, and changes nothing; the account as read is taken back, its CVU ignored as SPEC ignores derived fields', async () => {
    const { client } = await parties(ctx.api, ctx.token);
    const otherClient = (await parties(ctx.api, ctx.token)).client;
    const account = (await open({ clientId: client.id })).body;
    await ctx.api.provisionAll();
    const read = (await get(account.id)).body;
    const put = (body: object) => ctx.api.call('put', `/v1/receivable-accounts/${account.id}`, { token: ctx.token, body });
    const refused = await put({ alias: 'cambio.de.cliente', clientId: otherClient.id, currencyCode: 'USD', cvu: '0000003100000000000017' });
    expect([refused.status, refused.body.invalidParams?.map((p: { name: string }) => p.name)]).toEqual([400, ['clientId', 'currencyCode']]);
    expect((await get(account.id)).body).toEqual(read);
    const otherOwner = await put({ alias: 'cambio.de.owner', owner: { type: 'CLIENT', id: otherClient.id } });
    expect([otherOwner.status, otherOwner.body.invalidParams?.map((p: { name: string }) => p.name)]).toEqual([400, ['owner']]);
    expect((await get(account.id)).body).toEqual(read);
    const repeated = await put({ ...read, alias: 'mismo.cliente.1', clientId: client.id });
    expect([repeated.status, repeated.body.alias, repeated.body.owner]).toEqual([200, 'mismo.cliente.1', read.owner]);
    // The CVU is the provider's (SPEC: derived, ignored if sent), whatever is sent in its place.
    for (const cvu of ['0000003100000000000017', null, 42]) {
      const ignored = await put({ alias: 'mismo.cliente.2', cvu });
      expect([ignored.status, ignored.body.cvu]).toEqual([200, read.cvu]);
    }
  });

  it('disables with 204 and re-enables; one that never got a CVU goes back to PROVISIONING', async () => {
    const { client, associate } = await parties(ctx.api, ctx.token);
    const account = (await open({ clientId: client.id })).body;
    await ctx.api.provisionAll();
    expect((await ctx.api.call('delete', `/v1/receivable-accounts/${account.id}`, { token: ctx.token })).status).toBe(204);
    expect((await get(account.id)).body.status).toBe('DISABLED');
    expect((await ctx.api.call('delete', `/v1/receivable-accounts/${account.id}`, { token: ctx.token })).body.code).toBe('invalid-status-transition');
    const back = await ctx.api.call('post', `/v1/receivable-accounts/${account.id}/activations`, { token: ctx.token });
    expect(back.body).toMatchObject({ status: 'ACTIVE', cvu: expect.stringMatching(/^\d{22}$/) });
    expect((await ctx.api.call('post', `/v1/receivable-accounts/${account.id}/activations`, { token: ctx.token })).body.code).toBe('invalid-status-transition');

    const early = (await open({ associateId: associate.id })).body;
    await ctx.api.call('delete', `/v1/receivable-accounts/${early.id}`, { token: ctx.token });
    const again = await ctx.api.call('post', `/v1/receivable-accounts/${early.id}/activations`, { token: ctx.token });
    expect(again.body).toMatchObject({ status: 'PROVISIONING', cvu: null });
    await ctx.api.provisionAll();
    expect((await get(early.id)).body.status).toBe('ACTIVE');
    const disabled = await ctx.api.db.knex('outbox_events').where({ type: 'receivable-account.disabled' });
    expect(disabled.map((e) => e.data.receivableAccount.id)).toEqual(expect.arrayContaining([account.id, early.id]));
  });

  it('says a DISABLED account was DISABLED_BY_CUSTOMER, in the account and its event, and no reason while not DISABLED', async () => {
    const { client } = await parties(ctx.api, ctx.token);
    const account = (await open({ clientId: client.id })).body;
    expect(account).toMatchObject({ status: 'PROVISIONING', disabledReason: null, disabledMessage: null });
    await ctx.api.provisionAll();
    await ctx.api.call('delete', `/v1/receivable-accounts/${account.id}`, { token: ctx.token });
    expect((await get(account.id)).body).toMatchObject({ status: 'DISABLED', disabledReason: 'DISABLED_BY_CUSTOMER', disabledMessage: null });
    const [event] = await ctx.api.db
      .knex('outbox_events')
      .where({ type: 'receivable-account.disabled' })
      .whereRaw(`data->'receivableAccount'->>'id' = ?`, [String(account.id)]);
    expect(event.data.receivableAccount).toMatchObject({ disabledReason: 'DISABLED_BY_CUSTOMER', disabledMessage: null });
    const back = await ctx.api.call('post', `/v1/receivable-accounts/${account.id}/activations`, { token: ctx.token });
    expect(back.body).toMatchObject({ status: 'ACTIVE', disabledReason: null, disabledMessage: null });
  });

  it('lists with filters, ACTIVE by default, and through the client and associate', async () => {
    const { client, associate } = await parties(ctx.api, ctx.token);
    const a = (await open({ clientId: client.id })).body;
    const b = (await open({ clientId: client.id, associateId: associate.id })).body;
    const ids = async (url: string, token = ctx.token) => (await ctx.api.call('get', url, { token })).body.map((x: { id: number }) => x.id);
    expect(await ids(`/v1/receivable-accounts?clientId=${client.id}`)).toEqual([]);
    expect(await ids(`/v1/receivable-accounts?clientId=${client.id}&status=PROVISIONING`)).toEqual([b.id, a.id]);
    await ctx.api.provisionAll();
    expect(await ids(`/v1/receivable-accounts?clientId=${client.id}&ownerType=CLIENT_AND_ASSOCIATE`)).toEqual([b.id]);
    expect(await ids(`/v1/clients/${client.id}/receivable-accounts`)).toEqual([b.id, a.id]);
    expect(await ids(`/v1/associates/${associate.id}/receivable-accounts`)).toEqual([b.id]);
    expect(await ids(`/v1/clients/${client.id}/associates`)).toEqual([associate.id]);
    const cvu = (await get(a.id)).body.cvu;
    expect(await ids(`/v1/receivable-accounts?cvu=${cvu}`)).toEqual([a.id]);
    expect((await ctx.api.call('get', `/v1/clients/${client.id}/receivable-accounts`, { token: ctx.otherToken })).status).toBe(403);
    expect((await ctx.api.call('get', `/v1/receivable-accounts/${a.id}`, { token: ctx.otherToken })).status).toBe(403);
    expect(await ids(`/v1/receivable-accounts?ids=${a.id}`, ctx.otherToken)).toEqual([]);
  });
});
