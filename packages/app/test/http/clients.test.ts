import { aBranch, validTaxId } from '@rcs/domain/testing';
import { useTestApi } from '../support/test-api';

const TAX_ID = validTaxId('30', 71234567);
const dashed = (t: string) => `${t.slice(0, 2)}-${t.slice(2, 10)}-${t.slice(10)}`;
const aClient = (overrides: Record<string, unknown> = {}) => ({ businessName: 'Kiosco El Sol SRL', taxId: TAX_ID, documentType: 'CUIT', ...overrides });

describe('clients', () => {
  const ctx = useTestApi();
  const post = (body: unknown, token = ctx.token) => ctx.api.call('post', '/v1/clients', { token, body });

  it('creates a client with 201, Location and the canonical 11-digit taxId', async () => {
    const res = await post(aClient({ taxId: ` ${dashed(validTaxId('30', 50000001))} `, email: 'a@b.example', externalId: 'erp-9' }));
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/v1/clients/${res.body.id}`);
    expect(res.body).toMatchObject({ taxId: validTaxId('30', 50000001), email: 'a@b.example', externalId: 'erp-9', branchExternalCode: null });
    const read = await ctx.api.call('get', res.headers.location, { token: ctx.token });
    expect(read.body).toEqual(res.body);
  });

  it('returns the existing client unchanged with 200 when the identity exists', async () => {
    const first = await post(aClient({ taxId: validTaxId('30', 50000002) }));
    const again = await post(aClient({ taxId: dashed(validTaxId('30', 50000002)), businessName: 'Another name' }));
    expect(again.status).toBe(200);
    expect(again.headers.location).toBeUndefined();
    expect(again.body).toEqual(first.body);
  });

  it('keeps each branch of one taxId as its own client', async () => {
    const taxId = validTaxId('30', 50000003);
    const head = await post(aClient({ taxId }));
    const branch = await post(aClient({ taxId, ...aBranch('SUC-9') }));
    expect(branch.status).toBe(201);
    expect(branch.body.id).not.toBe(head.body.id);
    const list = await ctx.api.call('get', `/v1/clients?taxId=${dashed(taxId)}`, { token: ctx.token });
    expect(list.headers['x-total-count']).toBe('2');
    const onlyBranch = await ctx.api.call('get', `/v1/clients?taxId=${taxId}&branchExternalCode=SUC-9`, { token: ctx.token });
    expect(onlyBranch.body.map((c: { id: number }) => c.id)).toEqual([branch.body.id]);
  });

  it.each(['SUC-9 ', ' SUC-9', 'SUC\u200b9', 'SUC\ufe0f9', '   '])(
    'refuses the branchExternalCode %j with 400 validation: a key that looks like another, or like none',
    async (code) => {
      const res = await post(aClient({ taxId: validTaxId('30', 50000005), ...aBranch(code) }));
      expect([res.status, res.body.invalidParams?.[0]?.name]).toEqual([400, 'branchExternalCode']);
    },
  );

  it.each(['erp-9 ', 'erp\u200b9'])('refuses the externalId %j with 400 validation, as the list filter matches it exactly', async (externalId) => {
    const res = await post(aClient({ taxId: validTaxId('30', 50000006), externalId }));
    expect([res.status, res.body.invalidParams?.[0]?.name]).toEqual([400, 'externalId']);
  });

  it.each([
    ['a branch code without description and address', { branchExternalCode: 'B1' }],
    ['a branch description without a branch code', { branchDescription: 'Downtown', branchReferenceAddress: 'Calle 1' }],
    ['a branch described by spaces alone', { branchExternalCode: 'B2', branchDescription: '  ', branchReferenceAddress: 'Calle 1' }],
  ])('refuses %s with 422 incomplete-branch', async (_what, extra) => {
    const res = await post(aClient({ taxId: validTaxId('30', 50000004), ...extra }));
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('incomplete-branch');
  });

  it.each([
    ['a wrong check digit', { taxId: `${TAX_ID.slice(0, 10)}${(Number(TAX_ID[10]) + 1) % 10}` }, 'taxId'],
    ['too few digits', { taxId: '3071234567' }, 'taxId'],
    ['an unknown document type', { documentType: 'DNI' }, 'documentType'],
    ['a company taxId as CUIL', { documentType: 'CUIL' }, 'taxId'],
    ['a missing businessName', { businessName: undefined }, 'businessName'],
    ['a numeric businessName', { businessName: 42 }, 'businessName'],
    ['a malformed email', { email: 'not-an-email' }, 'email'],
  ])('refuses %s with 400 validation naming the field', async (_what, extra, field) => {
    const res = await post(aClient(extra));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation');
    expect(res.body.invalidParams).toEqual(expect.arrayContaining([expect.objectContaining({ name: field })]));
  });

  it('replaces the editable fields on PUT and refuses identity changes', async () => {
    const created = (await post(aClient({ taxId: validTaxId('30', 50000005), ...aBranch('B7') }))).body;
    const url = `/v1/clients/${created.id}`;
    const updated = await ctx.api.call('put', url, {
      token: ctx.token,
      body: aClient({ taxId: created.taxId, ...aBranch('B7'), businessName: 'Renamed', email: 'x@y.example' }),
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ businessName: 'Renamed', email: 'x@y.example', creationDate: created.creationDate });
    for (const change of [{ taxId: validTaxId('30', 50000006) }, { documentType: 'CUIL', taxId: validTaxId('20', 50000006) }, { ...aBranch('B8') }]) {
      const res = await ctx.api.call('put', url, { token: ctx.token, body: aClient({ taxId: created.taxId, ...aBranch('B7'), ...change }) });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation');
    }
    expect((await ctx.api.call('get', url, { token: ctx.token })).body.businessName).toBe('Renamed');
  });

  it("answers another customer's client with 403 resource-not-accessible and a missing one with 404", async () => {
    const mine = (await post(aClient({ taxId: validTaxId('30', 50000007) }))).body;
    const url = `/v1/clients/${mine.id}`;
    for (const method of ['get', 'put'] as const) {
      const res = await ctx.api.call(method, url, { token: ctx.otherToken, body: method === 'put' ? aClient({ taxId: mine.taxId }) : undefined });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('resource-not-accessible');
    }
    expect((await ctx.api.call('get', '/v1/clients/987654321', { token: ctx.token })).body.code).toBe('resource-not-found');
    const theirs = await ctx.api.call('get', `/v1/clients?ids=${mine.id}`, { token: ctx.otherToken });
    expect(theirs.body).toEqual([]);
  });

  it('pages a list newest first with X-Total-Count and filters by externalId and ids', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await post(aClient({ taxId: validTaxId('33', 60000000 + i * 10), externalId: 'page-test' }))).body.id);
    const first = await ctx.api.call('get', '/v1/clients?externalId=page-test&count=2', { token: ctx.token });
    expect(first.headers['x-total-count']).toBe('3');
    expect(first.body.map((c: { id: number }) => c.id)).toEqual([ids[2], ids[1]]);
    const second = await ctx.api.call('get', '/v1/clients?externalId=page-test&count=2&page=2', { token: ctx.token });
    expect(second.body.map((c: { id: number }) => c.id)).toEqual([ids[0]]);
    const beyond = await ctx.api.call('get', '/v1/clients?externalId=page-test&count=2&page=5', { token: ctx.token });
    expect(beyond.body).toEqual([]);
    expect(beyond.headers['x-total-count']).toBe('3');
    const byIds = await ctx.api.call('get', `/v1/clients?ids=${ids[0]},${ids[2]}`, { token: ctx.token });
    expect(byIds.body.map((c: { id: number }) => c.id)).toEqual([ids[2], ids[0]]);
    const future = await ctx.api.call('get', '/v1/clients?fromDate=2999-01-01', { token: ctx.token });
    expect(future.body).toEqual([]);
  });

  it('links each page but the last to the next one with a cursor, which walks the list whatever is created meanwhile', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await post(aClient({ taxId: validTaxId('33', 61000000 + i * 10), externalId: 'walk-test' }))).body.id);
    const walked: number[] = [];
    let path = '/v1/clients?externalId=walk-test&count=2&page=1';
    for (let pages = 0; path; pages++) {
      const res = await ctx.api.call('get', path, { token: ctx.token });
      expect(res.headers['x-total-count']).toBe(pages === 0 ? '5' : '6');
      walked.push(...res.body.map((c: { id: number }) => c.id));
      // A client created while walking is newer than every page: it counts in the total but shifts no later page.
      if (pages === 0) await post(aClient({ taxId: validTaxId('33', 61000090), externalId: 'walk-test' }));
      const link = /^<([^>]+)>; rel="next"$/.exec(res.headers.link ?? '');
      if (link) expect(link[1]).toMatch(/^\/v1\/clients\?externalId=walk-test&count=2&cursor=[A-Za-z0-9_-]+$/);
      path = link?.[1] ?? '';
    }
    expect(walked).toEqual([...ids].reverse());
  });

  const validCursor = Buffer.from(JSON.stringify(['2026-02-01T00:00:00.000000Z', 1])).toString('base64url');
  it.each([
    ['a cursor no list gave', 'cursor=bm90LWEtY3Vyc29y', 'cursor'],
    ['a cursor naming a day that does not exist', `cursor=${Buffer.from(JSON.stringify(['2026-02-30T00:00:00.000000Z', 1])).toString('base64url')}`, 'cursor'],
    [
      'a cursor naming year 0000, which PostgreSQL has not',
      `cursor=${Buffer.from(JSON.stringify(['0000-12-31T23:59:59.999999Z', 1])).toString('base64url')}`,
      'cursor',
    ],
    ['both page and cursor', `page=2&cursor=${Buffer.from(JSON.stringify(['2026-02-01T00:00:00.000000Z', 1])).toString('base64url')}`, 'page'],
    ['the same cursor twice', `cursor=${validCursor}&cursor=${validCursor}`, 'cursor'],
    ['a cursor and text no list gave', `cursor=${validCursor}&cursor=abc`, 'cursor'],
  ])('answers a list with %s with 400 validation', async (_what, query, field) => {
    const res = await ctx.api.call('get', `/v1/clients?${query}`, { token: ctx.token });
    expect(res.status).toBe(400);
    expect(res.body.invalidParams.map((p: { name: string }) => p.name)).toEqual([field]);
  });

  it.each([
    ['count over 200', 'count=201', 'count'],
    ['page 0', 'page=0', 'page'],
    ['a negative count', 'count=-1', 'count'],
    ['a non-numeric page', 'page=abc', 'page'],
    ['a hexadecimal count', 'count=0x10', 'count'],
    ['a count in exponent notation', 'count=1e1', 'count'],
    ['a count with a decimal point', 'count=10.0', 'count'],
    ['a page with a leading space', 'page=%201', 'page'],
    ['malformed ids', 'ids=1,x', 'ids'],
    ['ids with a space after a comma', 'ids=1,%202', 'ids'],
    ['an id with a leading space', 'ids=%207', 'ids'],
    ['a parameter named after an object member', 'toString=1', 'toString'],
    ['a parameter named constructor', 'constructor=1', 'constructor'],
    ['a malformed fromDate', 'fromDate=yesterday', 'fromDate'],
    ['a short taxId', 'taxId=123', 'taxId'],
  ])('answers a list with %s with 400 validation', async (_what, query, field) => {
    const res = await ctx.api.call('get', `/v1/clients?${query}`, { token: ctx.token });
    expect(res.status).toBe(400);
    expect(res.body.invalidParams.map((p: { name: string }) => p.name)).toContain(field);
  });

  it.each([
    ['count=-1', 'count must be 1 or more'],
    ['page=-3', 'page must be 1 or more'],
  ])('tells a list with %s what the member must be', async (query, reason) => {
    const res = await ctx.api.call('get', `/v1/clients?${query}`, { token: ctx.token });
    expect(res.body.invalidParams).toEqual([{ name: query.split('=')[0], reason }]);
  });

  it('ignores unknown and derived fields on input', async () => {
    const res = await post(aClient({ taxId: validTaxId('30', 50000008), id: 1, creationDate: '2000-01-01T00:00:00Z', isVip: true }));
    expect(res.status).toBe(201);
    expect(res.body.id).not.toBe(1);
    expect(res.body).not.toHaveProperty('isVip');
    expect(res.body.creationDate).not.toBe('2000-01-01T00:00:00.000Z');
  });
});
