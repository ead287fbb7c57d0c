import jwt from 'jsonwebtoken';
import request from 'supertest';
import { composeCvu, ERROR_CODES, type ErrorCode } from '@rcs/domain';
import { openApiDocument, STATUS_BY_CODE, wireCodeOf } from '@rcs/adapters-http';
import { TEST_JWT_SECRET, useTestApi, type CallOptions } from '../support/test-api';
import { activeAccount, key, parties } from '../support/fixtures';
import { transferErrorTriggers } from '../support/transfer-error-triggers';

/** A request that answers one error code, and what its detail must name (the member or the resource, amounts in decimals). */
type Trigger = () => Promise<{ res: request.Response; names: readonly string[] }>;

/** Codes no request can produce today, and why; every other code of the domain's list has a trigger below. */
const UNREACHABLE: Partial<Record<ErrorCode, string>> = {
  'invalid-format': 'malformed fields are 400 validation',
  'idempotency-request-in-progress': 'needs a first request holding its key for 10 s',
  'concurrent-modification': 'needs two requests racing for one row',
  'rate-limit-exceeded': 'this API is started with a limit no test reaches (rate-limit.test.ts covers it)',
  'internal-error': 'needs a failing database',
  'external-provider-timeout': "the simulator's slow answer (1 s) is within the default timeout; contacts.test.ts covers it with a shorter one",
};

/** Every member, parameter and header name the API documents: the only camelCase words a detail may hold. */
function documentedNames(node: unknown, into = new Set<string>(['Idempotency-Key', 'Authorization'])): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => documentedNames(item, into));
  else if (node !== null && typeof node === 'object') {
    const object = node as Record<string, unknown>;
    if (object.properties && typeof object.properties === 'object') Object.keys(object.properties).forEach((name) => into.add(name));
    if (typeof object.name === 'string' && typeof object.in === 'string') into.add(object.name);
    Object.values(object).forEach((value) => documentedNames(value, into));
  }
  return into;
}
const API_NAMES = documentedNames(openApiDocument);

describe('error details', () => {
  const ctx = useTestApi();
  const call = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', url: string, options: CallOptions = {}) =>
    ctx.api.call(method, url, { token: ctx.token, ...options });
  const issue = (body: object) =>
    call('post', '/v1/receivables', { headers: key('err'), body: { amount: 100, currencyCode: 'ARS', receivableType: 'INVOICE', ...body } });
  const openAccount = (body: object, token = ctx.token) => call('post', '/v1/receivable-accounts', { token, headers: key('err'), body });
  const clientBody = (extra: object) => ({ businessName: 'Detalle SA', taxId: '30-71234567-1', documentType: 'CUIT', ...extra });
  const routeSettlement = (body: object) => call('post', '/v1/route-settlements', { body });
  const tokenOf = async (scopes?: string[]) => {
    const customerId = (await call('get', '/v1/me')).body.customerId;
    return ctx.api.login(await ctx.api.app.credentials.create.execute({ customerId, scopes }));
  };

  const triggers: Partial<Record<ErrorCode, Trigger>> = {
    ...transferErrorTriggers(ctx),
    validation: async () => ({ res: await call('post', '/v1/clients', { body: {} }), names: ['businessName'] }),
    'invalid-credentials': async () => ({
      res: await call('post', '/v1/auth/login', { token: undefined, body: { clientId: 'sandbox-client', clientSecret: 'wrong' } }),
      names: ['clientSecret'],
    }),
    unauthorized: async () => ({ res: await call('get', '/v1/clients', { token: undefined }), names: ['Authorization'] }),
    'invalid-token': async () => ({ res: await call('get', '/v1/clients', { token: 'not-a-jwt' }), names: ['token'] }),
    'token-expired': async () => {
      const expired = jwt.sign(
        { sub: 'sandbox-client', customerId: 1, cid: 1, scope: 'clients:read', exp: Math.floor(Date.now() / 1000) - 10 },
        TEST_JWT_SECRET,
      );
      return { res: await call('get', '/v1/clients', { token: expired }), names: ['token'] };
    },
    'insufficient-scope': async () => ({
      res: await call('post', '/v1/clients', { token: await tokenOf(['clients:read']), body: clientBody({}) }),
      names: ['clients:write'],
    }),
    'resource-not-accessible': async () => {
      const { client } = await parties(ctx.api, ctx.token);
      return { res: await call('get', `/v1/clients/${client.id}`, { token: ctx.otherToken }), names: [`client ${client.id}`] };
    },
    'resource-not-found': async () => ({ res: await call('get', '/v1/clients/987654321'), names: ['client 987654321'] }),
    // Not through `call`: the OpenAPI document has no operation for a method a path does not serve.
    'method-not-allowed': async () => ({
      res: await request(ctx.api.http).delete('/v1/clients').set('Authorization', `Bearer ${ctx.token}`),
      names: ['DELETE', '/v1/clients', 'GET, HEAD, POST'],
    }),
    'idempotency-key-reuse': async () => {
      const headers = key('reuse');
      await call('post', '/v1/clients', { headers, body: clientBody({ businessName: 'Primero SA' }) });
      return { res: await call('post', '/v1/clients', { headers, body: clientBody({ businessName: 'Segundo SA' }) }), names: ['Idempotency-Key'] };
    },
    'unsupported-media-type': async () => ({
      res: await request(ctx.api.http).post('/v1/clients').set('Authorization', `Bearer ${ctx.token}`).set('Content-Type', 'text/plain').send('hello'),
      names: ['application/json', 'text/plain'],
    }),
    'payload-too-large': async () => ({
      res: await call('post', '/v1/clients', { body: clientBody({ businessName: 'x'.repeat(1_100_000) }) }),
      names: ['1 MB'],
    }),
    'invalid-status-transition': async () => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      const pending = (await issue({ receivableAccountId: account.id })).body;
      return {
        res: await call('patch', `/v1/receivables/${pending.id}/status`, { body: { status: 'PENDING' } }),
        names: [`receivable ${pending.id}`, 'PENDING'],
      };
    },
    'receivable-account-already-exists': async () => {
      const { client } = await parties(ctx.api, ctx.token);
      const first = (await openAccount({ clientId: client.id })).body;
      return { res: await openAccount({ clientId: client.id }), names: [`receivable account ${first.id}`] };
    },
    'alias-already-in-use': async () => {
      const [a, b] = [await activeAccount(ctx.api, ctx.token), await activeAccount(ctx.api, ctx.token)];
      const alias = (await call('get', `/v1/receivable-accounts/${a.account.id}`)).body.alias;
      return { res: await call('put', `/v1/receivable-accounts/${b.account.id}`, { body: { alias } }), names: [`alias ${alias}`] };
    },
    'receivable-account-requires-owner': async () => ({ res: await openAccount({}), names: ['clientId', 'associateId'] }),
    'receivable-account-owner-immutable': async () => {
      const { client, associate } = await parties(ctx.api, ctx.token);
      const other = await parties(ctx.api, ctx.token);
      const account = (await openAccount({ clientId: client.id, associateId: associate.id })).body;
      await ctx.api.provisionAll();
      return {
        res: await call('put', `/v1/receivable-accounts/${account.id}`, { body: { associateId: other.associate.id } }),
        names: [`receivable account ${account.id}`, 'associateId'],
      };
    },
    'receivable-account-not-active': async () => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      await call('delete', `/v1/receivable-accounts/${account.id}`);
      return { res: await issue({ receivableAccountId: account.id }), names: [`receivable account ${account.id}`] };
    },
    'owner-type-not-supported': async () => {
      const { customer, clientId, clientSecret } = await ctx.api.app.customers.create.execute({ name: `Details clients only ${Date.now()}` });
      await ctx.api.db
        .knex('customers')
        .where({ id: customer.id })
        .update({ enabled_owner_types: ['CLIENT'] });
      const token = await ctx.api.login({ clientId, clientSecret });
      const { associate } = await parties(ctx.api, token);
      return { res: await openAccount({ associateId: associate.id }, token), names: ['ASSOCIATE'] };
    },
    'current-account-not-receivable-enabled': async () => {
      const main = (await call('get', '/v1/current-accounts?accountType=MAIN')).body[0];
      return { res: await issue({ receivableAccountId: main.id }), names: [`account ${main.id}`] };
    },
    'unmatching-receivable-currency-code': async () => ({
      res: await issue({ receivableAccountId: (await activeAccount(ctx.api, ctx.token)).account.id, currencyCode: 'USD' }),
      names: ['currencyCode'],
    }),
    'unmatching-receivable-client-id': async () => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      const other = await parties(ctx.api, ctx.token);
      return { res: await issue({ receivableAccountId: account.id, clientId: other.client.id }), names: ['clientId'] };
    },
    'receivable-account-associate-conflict': async () => {
      const { client, associate } = await parties(ctx.api, ctx.token);
      const other = await parties(ctx.api, ctx.token);
      const account = (await openAccount({ clientId: client.id, associateId: associate.id })).body;
      return { res: await issue({ receivableAccountId: account.id, associateId: other.associate.id }), names: ['associateId'] };
    },
    'missing-parent-receivable': async () => ({
      res: await issue({ receivableAccountId: (await activeAccount(ctx.api, ctx.token)).account.id, receivableType: 'RETENTION' }),
      names: ['parentReceivableId'],
    }),
    'parent-receivable-not-modifiable': async () => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      const parent = (await issue({ receivableAccountId: account.id })).body;
      await call('patch', `/v1/receivables/${parent.id}/status`, { body: { status: 'DISABLED' } });
      return {
        res: await issue({ receivableAccountId: account.id, receivableType: 'RETENTION', amount: 1, parentReceivableId: parent.id }),
        names: [`parent ${parent.id}`],
      };
    },
    'parent-receivable-different-account': async () => {
      const [a, b] = [await activeAccount(ctx.api, ctx.token), await activeAccount(ctx.api, ctx.token)];
      const parent = (await issue({ receivableAccountId: a.account.id })).body;
      return {
        res: await issue({ receivableAccountId: b.account.id, receivableType: 'RETENTION', amount: 1, parentReceivableId: parent.id }),
        names: [`parent ${parent.id}`],
      };
    },
    'parent-receivable-invalid-type': async () => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      const parent = (await issue({ receivableAccountId: account.id })).body;
      const note = (await issue({ receivableAccountId: account.id, receivableType: 'CREDIT_NOTE', amount: 1, parentReceivableId: parent.id })).body;
      return {
        res: await issue({ receivableAccountId: account.id, receivableType: 'RETENTION', amount: 1, parentReceivableId: note.id }),
        names: [`parent ${note.id}`],
      };
    },
    'child-receivables-exceed-parent-amount': async () => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      const parent = (await issue({ receivableAccountId: account.id })).body;
      await issue({ receivableAccountId: account.id, receivableType: 'RETENTION', amount: '40.5', parentReceivableId: parent.id });
      return { res: await call('put', `/v1/receivables/${parent.id}`, { body: { amount: '40.25' } }), names: [`parent ${parent.id}`, '40.5', '40.25'] };
    },
    'receivable-has-related-items': async () => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      const parent = (await issue({ receivableAccountId: account.id })).body;
      await issue({ receivableAccountId: account.id, receivableType: 'RETENTION', amount: 1, parentReceivableId: parent.id });
      return { res: await call('patch', `/v1/receivables/${parent.id}/status`, { body: { status: 'DISABLED' } }), names: [`receivable ${parent.id}`] };
    },
    'updating-receivable-final-status': async () => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      const cancelled = (await issue({ receivableAccountId: account.id })).body;
      await call('patch', `/v1/receivables/${cancelled.id}/status`, { body: { status: 'DISABLED' } });
      return {
        res: await call('patch', `/v1/receivables/${cancelled.id}/status`, { body: { status: 'PAID' } }),
        names: [`receivable ${cancelled.id}`, 'DISABLED'],
      };
    },
    'missing-invoice-fields': async () => ({
      res: await issue({ receivableAccountId: (await activeAccount(ctx.api, ctx.token)).account.id, invoiceData: { version: '1' } }),
      names: ['invoiceData', 'pointOfSale'],
    }),
    'duplicated-legal-number': async () => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      await issue({ receivableAccountId: account.id, legalNumber: `ERR-${account.id}` });
      return { res: await issue({ receivableAccountId: account.id, legalNumber: `ERR-${account.id}` }), names: ['legalNumber', `ERR-${account.id}`] };
    },
    'unmatching-movement-currency-code': async () => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      const body = { receivableAccountId: account.id, amount: 1, currencyCode: 'USD', counterParty: { name: 'Juan', taxId: '20-12345678-6' } };
      return { res: await call('post', '/v1/sandbox/collections', { body }), names: ['currencyCode'] };
    },
    'incomplete-branch': async () => ({
      res: await call('post', '/v1/clients', { body: clientBody({ branchExternalCode: 'B1' }) }),
      names: ['branchDescription'],
    }),
    'associate-disabled': async () => {
      const { associate } = await parties(ctx.api, ctx.token);
      await call('delete', `/v1/associates/${associate.id}`);
      return { res: await openAccount({ associateId: associate.id }), names: [`associate ${associate.id}`] };
    },
    'route-code-already-used': async () => {
      const { associate } = await parties(ctx.api, ctx.token);
      const routeCode = `ERR-DATE-${associate.id}`;
      await routeSettlement({ routeCode, date: '2026-03-01', associateId: associate.id });
      return { res: await routeSettlement({ routeCode, date: '2026-03-02', associateId: associate.id }), names: [routeCode, '2026-03-01'] };
    },
    'route-code-already-used-for-date': async () => {
      const [first, second] = [await parties(ctx.api, ctx.token), await parties(ctx.api, ctx.token)];
      const routeCode = `ERR-ASSOC-${first.associate.id}`;
      await routeSettlement({ routeCode, date: '2026-03-01', associateId: first.associate.id });
      return {
        res: await routeSettlement({ routeCode, date: '2026-03-01', associateId: second.associate.id }),
        names: [routeCode, `associate ${first.associate.id}`],
      };
    },
    'duplicated-contact': async () => {
      const body = { name: 'Detalle SA', taxId: '30-71234567-1', cbuCvu: composeCvu('0070999', 4242n) };
      const first = (await call('post', '/v1/contacts', { body })).body;
      return { res: await call('post', '/v1/contacts', { body: { ...body, name: 'Otro SA' } }), names: [`recipient ${first.id}`, 'cbuCvu'] };
    },
    'external-provider-unavailable': async () => ({
      res: await call('post', '/v1/contacts', { body: { name: 'Detalle SA', taxId: '30-71234567-1', alias: 'sim-down.details' } }),
      names: ['provider'],
    }),
    'invalid-event-type': async () => ({
      res: await call('post', '/v1/webhooks', { body: { url: 'https://erp.example/hooks', events: ['receivable.paid', 'invoice.sent'] } }),
      names: ['events', 'invoice.sent'],
    }),
    'webhook-status-conflict': async () => {
      const webhook = (await call('post', '/v1/webhooks', { body: { url: 'https://erp.example/hooks', events: ['receivable.paid'] } })).body;
      return { res: await call('post', `/v1/webhooks/${webhook.id}/activations`), names: [`webhook ${webhook.id}`, 'ACTIVE'] };
    },
  };

  it('has a trigger, or a reason there is none, for every code of the domain list and of the HTTP status table', () => {
    const codes = new Set<string>([...ERROR_CODES, ...Object.keys(STATUS_BY_CODE)]);
    expect([...codes].filter((code) => !triggers[code as ErrorCode] && !UNREACHABLE[code as ErrorCode])).toEqual([]);
  });

  it.each(ERROR_CODES.filter((code) => triggers[code]))('%s: the detail names the member or resource, in the API words and units', async (code) => {
    const { res, names } = await triggers[code]!();
    expect([res.status, res.body.code]).toEqual([STATUS_BY_CODE[code], wireCodeOf(code)]);
    const detail: string = res.body.detail;
    for (const name of names) expect(detail).toContain(name);
    const camelCase = detail.match(/\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g) ?? [];
    expect(camelCase.filter((word) => !API_NAMES.has(word))).toEqual([]);
    expect(detail).not.toMatch(/\bcents?\b|\bminor\b|\bany\b/i);
  });

  it('lists in the OpenAPI document only codes the API sends', () => {
    expect(openApiDocument.info.description).not.toContain('route-code-already-used-for-date');
  });
});
