import { validTaxId } from '@rcs/domain/testing';
import { itRacing, useTestApi } from '../support/test-api';
import { anAssociateBody as anAssociate } from '../support/fixtures';

describe('associates', () => {
  const ctx = useTestApi();
  const post = (body: unknown, token = ctx.token) => ctx.api.call('post', '/v1/associates', { token, body });
  const url = (id: number, suffix = '') => `/v1/associates/${id}${suffix}`;

  it('creates an ACTIVE associate with 201 and Location', async () => {
    const res = await post(anAssociate({ address: 'Av. Siempre Viva 742', type: 'SCHOOL_BUS_DRIVER' }));
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(url(res.body.id));
    expect(res.body).toMatchObject({ status: 'ACTIVE', type: 'SCHOOL_BUS_DRIVER', address: 'Av. Siempre Viva 742', parentAssociateId: null });
  });

  it('returns the existing ACTIVE associate with 200 for the same taxId', async () => {
    const body = anAssociate();
    const first = await post(body);
    const again = await post({ ...body, name: 'Other' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it('names every missing required field in one 400 validation', async () => {
    const res = await post({ type: 'DRIVER', name: 'Ana' });
    expect(res.status).toBe(400);
    const names = res.body.invalidParams.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(['lastName', 'taxId', 'documentNumber', 'email', 'phone']));
  });

  it('refuses a phone without country code and an invalid taxId with 400 validation', async () => {
    expect((await post(anAssociate({ phone: '1155550000' }))).body.invalidParams[0].name).toBe('phone');
    expect((await post(anAssociate({ taxId: '20-11111111-1' }))).body.invalidParams[0].name).toBe('taxId');
  });

  it('soft-deletes with 204, hides the associate from the default list and reactivates it', async () => {
    const created = (await post(anAssociate({ type: 'LIFECYCLE' }))).body;
    const deleted = await ctx.api.call('delete', url(created.id), { token: ctx.token });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await ctx.api.call('get', url(created.id), { token: ctx.token })).body.status).toBe('DISABLED');
    expect((await ctx.api.call('get', '/v1/associates?type=LIFECYCLE', { token: ctx.token })).body).toEqual([]);
    const disabled = await ctx.api.call('get', '/v1/associates?type=LIFECYCLE&status=DISABLED', { token: ctx.token });
    expect(disabled.body.map((a: { id: number }) => a.id)).toEqual([created.id]);
    const activated = await ctx.api.call('post', url(created.id, '/activations'), { token: ctx.token });
    expect(activated.status).toBe(200);
    expect(activated.body.status).toBe('ACTIVE');
  });

  it('answers operations on a DISABLED associate with 422 associate-disabled', async () => {
    const body = anAssociate();
    const created = (await post(body)).body;
    await ctx.api.call('delete', url(created.id), { token: ctx.token });
    for (const res of [
      await post(body),
      await ctx.api.call('put', url(created.id), { token: ctx.token, body }),
      await ctx.api.call('delete', url(created.id), { token: ctx.token }),
      await post(anAssociate({ parentAssociateId: created.id })),
    ]) {
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('associate-disabled');
    }
  });

  it('answers activating an ACTIVE associate with 422 invalid-status-transition', async () => {
    const created = (await post(anAssociate())).body;
    const res = await ctx.api.call('post', url(created.id, '/activations'), { token: ctx.token });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('invalid-status-transition');
  });

  it('updates on PUT, keeps the taxId immutable and refuses itself as parent', async () => {
    const body = anAssociate();
    const created = (await post(body)).body;
    const updated = await ctx.api.call('put', url(created.id), { token: ctx.token, body: { ...body, phone: '+5491100000000', address: 'New 1' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ phone: '+5491100000000', address: 'New 1' });
    const changed = await ctx.api.call('put', url(created.id), { token: ctx.token, body: { ...body, taxId: validTaxId('20', 39999990) } });
    expect(changed.status).toBe(400);
    const selfParent = await ctx.api.call('put', url(created.id), { token: ctx.token, body: { ...body, parentAssociateId: created.id } });
    expect(selfParent.body.invalidParams[0].name).toBe('parentAssociateId');
  });

  it('refuses a supervisor loop with 400 naming parentAssociateId', async () => {
    const bossBody = anAssociate({ type: 'SUPERVISOR' });
    const boss = (await post(bossBody)).body;
    const worker = (await post(anAssociate({ parentAssociateId: boss.id }))).body;
    const loop = await ctx.api.call('put', url(boss.id), { token: ctx.token, body: { ...bossBody, parentAssociateId: worker.id } });
    expect(loop.status).toBe(400);
    expect(loop.body.invalidParams[0].name).toBe('parentAssociateId');
  });

  itRacing('refuses one of two edits naming each other that arrive together', async () => {
    for (let round = 0; round < 4; round++) {
      const bodies = [anAssociate(), anAssociate()];
      const [a, b] = await Promise.all(bodies.map(async (body) => (await post(body)).body));
      const answers = await Promise.all([
        ctx.api.call('put', url(a.id), { token: ctx.token, body: { ...bodies[0], parentAssociateId: b.id } }),
        ctx.api.call('put', url(b.id), { token: ctx.token, body: { ...bodies[1], parentAssociateId: a.id } }),
      ]);
      // One goes first and the other then sees the loop it would close: never a deadlock (409) or both.
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    }
  });

  it("links a supervisor of the same customer and refuses another customer's or a missing one", async () => {
    const boss = (await post(anAssociate({ type: 'SUPERVISOR' }))).body;
    const worker = await post(anAssociate({ parentAssociateId: boss.id }));
    expect(worker.body.parentAssociateId).toBe(boss.id);
    const children = await ctx.api.call('get', `/v1/associates?parentAssociateId=${boss.id}`, { token: ctx.token });
    expect(children.body.map((a: { id: number }) => a.id)).toEqual([worker.body.id]);
    const foreign = await post(anAssociate({ parentAssociateId: boss.id }), ctx.otherToken);
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('resource-not-accessible');
    const missing = await post(anAssociate({ parentAssociateId: 987654321 }));
    expect(missing.status).toBe(404);
  });

  it("answers another customer's associate with 403 on every operation", async () => {
    const created = (await post(anAssociate())).body;
    for (const [method, suffix] of [
      ['get', ''],
      ['delete', ''],
      ['post', '/activations'],
    ] as const) {
      const res = await ctx.api.call(method, url(created.id, suffix), { token: ctx.otherToken });
      expect(res.status).toBe(403);
    }
    expect((await ctx.api.call('get', url(created.id), { token: ctx.token })).body.status).toBe('ACTIVE');
  });

  it('filters by taxId, documentNumber and type', async () => {
    const body = anAssociate({ type: 'FILTER_ME' });
    const created = (await post(body)).body;
    for (const query of [`taxId=${body.taxId}`, `documentNumber=${body.documentNumber}`, 'type=FILTER_ME']) {
      const res = await ctx.api.call('get', `/v1/associates?${query}`, { token: ctx.token });
      expect(res.body.map((a: { id: number }) => a.id)).toEqual([created.id]);
    }
    expect((await ctx.api.call('get', '/v1/associates?status=GONE', { token: ctx.token })).status).toBe(400);
  });
});
