import { openApiDocument } from '@rcs/adapters-http';
import { composeCvu } from '@rcs/domain';
import { validTaxId } from '@rcs/domain/testing';
import { key } from '../support/fixtures';
import { documentedOperations, type DocumentedOperation } from '../support/openapi-operations';
import { useTestApi, type TestApi } from '../support/test-api';

/**
 * CONTRACT: another customer's resource, named in the path or in a body field, is 403 resource-not-accessible with
 * no effect. The walk reads the served OpenAPI document, so a new route or a new reference field is covered (or
 * fails here until its resource is seeded) without editing this file.
 */

/** One customer's resources, each under the path segment that names its kind (`/v1/<segment>/{id}`); events have text ids. */
type World = Record<string, { readonly id: number | string; readonly [member: string]: unknown }>;

let serial = 0;
const fresh = () => 70_000_000 + ++serial * 10;
const PAYER = { name: 'Juan Pagador', taxId: '20123456786' };

async function worldOf(api: TestApi, token: string): Promise<World> {
  const post = async (url: string, body: object) => {
    const res = await api.call('post', url, { token, body, headers: key('world') });
    if (res.status >= 300) throw new Error(`seeding ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const n = fresh();
  const client = await post('/v1/clients', { businessName: `Isolated ${n} SA`, taxId: validTaxId('30', n), documentType: 'CUIT' });
  const person = (m: number) => ({
    type: 'DRIVER',
    name: 'Rosa',
    lastName: `Díaz${m}`,
    taxId: validTaxId('27', m),
    documentNumber: String(m),
    email: 'r@d.example',
    phone: '+5491100000000',
  });
  const supervisor = await post('/v1/associates', person(fresh()));
  const associate = await post('/v1/associates', person(fresh()));
  const account = await post('/v1/receivable-accounts', { clientId: client.id, associateId: associate.id });
  await api.provisionAll();
  const receivable = await post('/v1/receivables', { receivableAccountId: account.id, amount: '100.00', currencyCode: 'ARS', receivableType: 'INVOICE' });
  const paid = await post('/v1/receivables', { receivableAccountId: account.id, amount: '40.00', currencyCode: 'ARS', receivableType: 'INVOICE' });
  await api.call('patch', `/v1/receivables/${paid.id}/status`, { token, body: { status: 'PAID' } });
  await post('/v1/sandbox/collections', { receivableAccountId: account.id, amount: '40.00', counterParty: PAYER });
  const routeSettlement = await post('/v1/route-settlements', { routeCode: `R${n}`, date: '2026-12-01', associateId: associate.id });
  await post('/v1/sandbox/settlement-runs', {});
  const [settlement] = (await api.call('get', `/v1/settlements?receivableAccountId=${account.id}`, { token })).body;
  const [currentAccount, otherCurrentAccount] = (await api.call('get', '/v1/current-accounts', { token })).body;
  const transfer = await post('/v1/transfers', internalTransfer(currentAccount.id, otherCurrentAccount.id));
  const contact = await post('/v1/contacts', { name: `Recipient ${n}`, taxId: validTaxId('30', n), cbuCvu: composeCvu('0070999', BigInt(n)) });
  const [event] = (await api.call('get', '/v1/events?count=1', { token })).body;
  const webhook = await post('/v1/webhooks', { url: 'https://erp.example/hooks', events: ['receivable.paid'] });
  return {
    clients: client,
    associates: { ...associate, supervisorId: supervisor.id },
    'receivable-accounts': account,
    receivables: receivable,
    'route-settlements': routeSettlement,
    settlements: settlement,
    'current-accounts': currentAccount,
    transfers: transfer,
    // Transfers name current accounts as sourceAccountId and destination.accountId.
    'source-accounts': currentAccount,
    accounts: otherCurrentAccount,
    contacts: contact,
    events: event,
    webhooks: webhook,
  };
}

/** A SCHEDULED internal transfer between two current accounts: nothing moves while the tests run. */
const internalTransfer = (sourceAccountId: number, accountId: number) => ({
  type: 'INTERNAL_TRANSFER',
  sourceAccountId,
  amount: '1.00',
  currencyCode: 'ARS',
  destination: { accountId },
  scheduledDate: '2099-12-31',
});

/** The resource named by each path parameter: the kind is the segment before it; `{routeCode}` takes that member. */
function urlIn(world: World, template: string): string {
  return template.replace(/\/([^/]+)\/\{(\w+)\}/g, (_all, segment: string, param: string) => {
    const resource = world[segment];
    if (!resource) throw new Error(`no resource seeded for /${segment}/{${param}}: add one to worldOf`);
    return `/${segment}/${String(param === 'id' ? resource.id : resource[param])}`;
  });
}

/**
 * A body the owner of `world` could send: valid in every member, naming that world's resources. An update names
 * the resource its path does; a creation makes a new one. Schemas not listed fall back to the document's sample.
 */
function bodyFor(operation: DocumentedOperation, world: World): unknown {
  const updates = operation.template.includes('{');
  const client = world.clients as unknown as Record<string, unknown>;
  const associate = world.associates as unknown as Record<string, unknown>;
  const m = fresh();
  const receivable = {
    receivableAccountId: world['receivable-accounts'].id,
    amount: '1.00',
    currencyCode: 'ARS',
    receivableType: 'CREDIT_NOTE',
    clientId: world.clients.id,
    associateId: world.associates.id,
    parentReceivableId: world.receivables.id,
  };
  const account = { clientId: world.clients.id, associateId: world.associates.id };
  const bodies: Record<string, unknown> = {
    ClientInput: updates
      ? { businessName: 'Renamed SA', taxId: client.taxId, documentType: client.documentType }
      : { businessName: `New ${m} SA`, taxId: validTaxId('30', m), documentType: 'CUIT' },
    AssociateInput: {
      ...(updates
        ? { type: associate.type, name: associate.name, lastName: associate.lastName, taxId: associate.taxId, documentNumber: associate.documentNumber }
        : { type: 'DRIVER', name: 'Ana', lastName: `Paz${m}`, taxId: validTaxId('27', m), documentNumber: String(m) }),
      email: 'a@p.example',
      phone: '+5491100000001',
      parentAssociateId: associate.supervisorId,
    },
    ReceivableAccountInput: account,
    ReceivableAccountBatchRequest: { items: [account] },
    ReceivableAccountUpdate: { associateId: world.associates.id },
    ReceivableInput: receivable,
    ReceivableBatchRequest: { items: [receivable] },
    ReceivableEdit: { description: 'edited' },
    ReceivableStatusInput: { status: 'PAID' },
    RouteSettlementInput: { routeCode: `N${m}`, date: '2026-12-01', associateId: world.associates.id },
    TransferInput: internalTransfer(Number(world['source-accounts'].id), Number(world.accounts.id)),
    ContactInput: { name: `Recipient ${m}`, taxId: validTaxId('30', m), cbuCvu: composeCvu('0070999', BigInt(m)) },
    CollectionInput: { receivableAccountId: world['receivable-accounts'].id, amount: '1.00', counterParty: PAYER },
    WebhookInput: { url: 'https://erp.example/hooks', events: ['receivable.paid'] },
    WebhookUpdate: { events: ['movement.created'] },
    DeliveryRequestInput: { eventType: 'webhook.test' },
  };
  const schema = requestSchemaOf(operation);
  return schema?.$ref ? (bodies[schema.$ref.split('/').pop()!] ?? operation.sampleBody) : operation.sampleBody;
}

interface Schema {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly items?: Schema;
}

const schemas = (openApiDocument.components as unknown as { schemas: Record<string, Schema> }).schemas;
const paths = openApiDocument.paths as unknown as Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
const requestSchemaOf = (operation: DocumentedOperation) => paths[operation.template][operation.method].requestBody?.content['application/json']?.schema;
const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(schemas[schema.$ref.split('/').pop()!]) : schema);

/** Where a body names another resource: integer members called `…Id`, as paths into the body (`items.0.clientId`). */
function referencesIn(schema: Schema | undefined, at: readonly string[] = []): string[][] {
  if (!schema) return [];
  const s = resolve(schema);
  if (s.items) return referencesIn(s.items, [...at, '0']);
  return Object.entries(s.properties ?? {}).flatMap(([name, member]) => {
    const types = [resolve(member).type ?? []].flat();
    if (name.endsWith('Id') && types.includes('integer')) return [[...at, name]];
    return referencesIn(member, [...at, name]);
  });
}

/** The segment of the kind a reference names: parentAssociateId → associates, receivableAccountId → receivable-accounts. */
const segmentOf = (member: string) =>
  `${member
    .replace(/^parent/, '')
    .replace(/Id$/, '')
    .replace(/^./, (c) => c.toLowerCase())
    .replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}s`;

function withReference(body: unknown, at: readonly string[], id: number | string): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  // A transfer's contactId stands for its destination, and only an OUTGOING_TRANSFER pays a recipient.
  if (at.join('.') === 'contactId') Object.assign(copy, { type: 'OUTGOING_TRANSFER', destination: undefined });
  let node = copy;
  for (const step of at.slice(0, -1)) node = node[step] as Record<string, unknown>;
  node[at[at.length - 1]] = id;
  return copy;
}

/** What the caller was told: the answer itself, or a batch's one item as it would have been answered alone. */
function refusalOf(res: { status: number; body: { code?: string; results?: Array<{ status: number; error?: { code: string } }> } }) {
  const item = res.body?.results?.[0];
  return item ? { status: item.status, code: item.error?.code } : { status: res.status, code: res.body?.code };
}

/** Every row of every table, but the idempotency records: a 403 is an answer CONTRACT keeps under its key. */
async function snapshot(api: TestApi): Promise<Record<string, unknown[]>> {
  const { rows } = await api.db.knex.raw(`SELECT table_name FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE' ORDER BY 1`, [
    api.db.schema,
  ]);
  const tables = (rows as Array<{ table_name: string }>).map((r) => r.table_name).filter((name) => name !== 'idempotency_keys');
  const entries = await Promise.all(tables.map(async (name) => [name, await api.db.knex(name).select('*').orderByRaw('1')] as const));
  return Object.fromEntries(entries);
}

const NOT_ACCESSIBLE = { status: 403, code: 'resource-not-accessible' };
/**
 * A route code is unique per customer and date (SPEC), a name in the caller's own namespace rather than an id:
 * another customer's code names nothing of the caller's, so it is not found, and nothing of the other is shown.
 */
const NOT_FOUND = { status: 404, code: 'resource-not-found' };

const withIds = documentedOperations.filter((op) => op.template.includes('{id}'));
const withNames = documentedOperations.filter((op) => op.template.includes('{') && !op.template.includes('{id}'));
const bodyReferences = documentedOperations.flatMap((op) =>
  referencesIn(requestSchemaOf(op)).map((at) => ({ op, at, name: `${op.method.toUpperCase()} ${op.template} ${at.join('.')}` })),
);

describe('tenant isolation, walked over the OpenAPI document', () => {
  const ctx = useTestApi();
  const worlds = {} as { mine: World; theirs: World };
  beforeAll(async () => {
    worlds.mine = await worldOf(ctx.api, ctx.token);
    worlds.theirs = await worldOf(ctx.api, ctx.otherToken);
  });

  /** Sends `body` to `url` with the other customer's token; expects the refusal and no change. */
  async function expectRefused(op: DocumentedOperation, url: string, body: unknown, refusal = NOT_ACCESSIBLE) {
    const before = await snapshot(ctx.api);
    const res = await ctx.api.call(op.method, url, {
      token: ctx.otherToken,
      body: op.method === 'get' || op.method === 'delete' ? undefined : body,
      headers: key('iso'),
    });
    expect(refusalOf(res)).toEqual(refusal);
    expect(await snapshot(ctx.api)).toEqual(before);
  }

  it('finds operations with an id in the path and body members that reference resources', () => {
    expect(withIds.length).toBeGreaterThanOrEqual(23);
    expect(bodyReferences.length).toBeGreaterThanOrEqual(10);
  });

  const named = (ops: readonly DocumentedOperation[]) => ops.map((op) => [`${op.method.toUpperCase()} ${op.template}`, op] as const);
  it.each(named(withIds))("%s answers 403 resource-not-accessible for another customer's resource and changes nothing", async (_name, op) => {
    await expectRefused(op, urlIn(worlds.mine, op.template), bodyFor(op, worlds.mine));
  });
  it.each(named(withNames))("%s answers 404 resource-not-found for another customer's route code and changes nothing", async (_name, op) => {
    await expectRefused(op, urlIn(worlds.mine, op.template), bodyFor(op, worlds.mine), NOT_FOUND);
  });

  it.each(bodyReferences.map((ref) => [ref.name, ref] as const))(
    "%s naming another customer's resource answers 403 resource-not-accessible and changes nothing",
    async (_name, { op, at }) => {
      const theirs = worlds.mine[segmentOf(at[at.length - 1])];
      if (!theirs) throw new Error(`no resource seeded for the reference ${at.join('.')}: add one to worldOf`);
      await expectRefused(op, urlIn(worlds.theirs, op.template), withReference(bodyFor(op, worlds.theirs), at, theirs.id));
    },
  );
});
