import fc from 'fast-check';
import { composeCvu, Money, type Application, type EventType } from '@rcs/domain';
import { A_CBU, validTaxId } from '@rcs/domain/testing';
import { openTestDatabase, type TestDatabase } from '@rcs/adapters-postgres/testing';
import { countMismatches } from './support/list-count-checks';
import { instanceOn, seedMoney } from './support/settlement-world';
import { dayFromToday } from './support/transfer-fixtures';

/**
 * The maintained counts of transfers, events, webhook attempts, recipients and webhooks (migration 018) against
 * count(*) after a random mix of writes, racing on two instances, with the dispatcher, the delivery worker and
 * the event purge among them; and each list's X-Total-Count for its counted filters.
 */
describe('maintained counts of the outflow lists', () => {
  let db: TestDatabase;
  let instances: Array<ReturnType<typeof instanceOn>>;
  beforeAll(async () => {
    db = await openTestDatabase();
    // Two instances (two pools) on a server: their transactions really race. PGlite has one connection.
    instances = db.storage === 'pglite' ? [instanceOn(db)] : [instanceOn(db), instanceOn(db)];
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.knex.destroy()));
    await db.close();
  });

  const TYPES: EventType[] = ['receivable.created', 'receivable.paid', 'movement.created', 'transfer.failed'];

  interface World {
    readonly customerId: number;
    readonly credentialId: number;
    readonly accountId: number;
    /** MAIN, never funded: every transfer the worker takes fails for its balance, with no payout to wait for. */
    readonly mainId: number;
    readonly transfers: number[];
    readonly contacts: number[];
    readonly webhooks: number[];
  }

  async function world(app: Application): Promise<World> {
    const { customerId } = await seedMoney(db, app, 1);
    const id = async (table: string, where: object) => Number((await db.knex(table).where(where).first<{ id: string }>('id')).id);
    const credential = await db.knex('credentials').where({ customer_id: customerId }).first<{ id: string }>('id');
    return {
      customerId,
      credentialId: Number(credential.id),
      accountId: await id('receivable_accounts', { customer_id: customerId }),
      mainId: await id('current_accounts', { customer_id: customerId, account_type: 'MAIN' }),
      transfers: [],
      contacts: [],
      webhooks: [],
    };
  }

  type Operation =
    | { kind: 'issue' | 'process' | 'dispatch' | 'deliver' | 'purge' | 'webhook' }
    | { kind: 'transfer'; scheduled: boolean }
    | { kind: 'contact'; n: number }
    | { kind: 'cancel' | 'delete-contact' | 'delete-webhook' | 'pause' | 'activate'; pick: number };

  const simple = (kind: 'issue' | 'process' | 'dispatch' | 'deliver' | 'purge' | 'webhook') => fc.constant({ kind });
  const picking = (kind: 'cancel' | 'delete-contact' | 'delete-webhook' | 'pause' | 'activate') => fc.record({ kind: fc.constant(kind), pick: fc.nat() });
  const operation: fc.Arbitrary<Operation> = fc.oneof(
    { weight: 3, arbitrary: simple('issue') },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('transfer' as const), scheduled: fc.boolean() }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('contact' as const), n: fc.nat(5) }) },
    { weight: 2, arbitrary: simple('dispatch') },
    { weight: 2, arbitrary: simple('deliver') },
    { weight: 2, arbitrary: simple('purge') },
    simple('process'),
    simple('webhook'),
    ...(['cancel', 'delete-contact', 'delete-webhook', 'pause', 'activate'] as const).map(picking),
  );

  /** Events purged, and the counts the mix made (list and status): the mix must reach what it claims to test. */
  let purged = 0;
  const reached = new Set<string>();

  /** Runs one operation; refusals (a duplicate recipient, a move the state forbids, a race lost) are outcomes like any other. */
  async function apply(app: Application, w: World, op: Operation): Promise<void> {
    const { customerId } = w;
    const pick = (ids: number[], n: number) => ids[n % ids.length];
    switch (op.kind) {
      case 'issue': {
        const input = { customerId, receivableAccountId: w.accountId, amount: Money.parse('10.00'), currencyCode: 'ARS', receivableType: 'INVOICE' as const };
        const receivable = await app.receivables.issue.execute(input);
        await app.receivables.changeStatus.execute({ customerId, receivableId: receivable.id, status: 'PAID' });
        return;
      }
      case 'transfer': {
        const transfer = await app.transfers.create.execute({
          customerId,
          credentialId: w.credentialId,
          type: 'OUTGOING_TRANSFER',
          sourceAccountId: w.mainId,
          amount: Money.parse('1.00'),
          currencyCode: 'ARS',
          destination: { cbuCvu: A_CBU, counterParty: { name: 'Proveedor SA', taxId: validTaxId('30', 71234568) } },
          ...(op.scheduled ? { scheduledDate: dayFromToday(1) } : {}),
        });
        w.transfers.push(transfer.id);
        return;
      }
      case 'process':
        // As of tomorrow: the scheduled ones are due too.
        await app.transfers.process.execute({ customerId, day: dayFromToday(1) });
        return;
      case 'contact': {
        const destination = { cbuCvu: composeCvu('0110599', BigInt(op.n + 1)), alias: null, entity: 'Banco' };
        w.contacts.push((await app.contacts.create.execute({ customerId, details: { name: 'R', taxId: validTaxId('20', 30000000 + op.n) }, destination })).id);
        return;
      }
      case 'webhook':
        w.webhooks.push((await app.webhooks.register.execute({ customerId, url: 'https://127.0.0.1:9/hook', events: TYPES })).webhook.id);
        return;
      case 'dispatch':
        await app.webhooks.dispatch.execute({});
        return;
      case 'deliver':
        // Nothing listens there: each attempt fails and the next one is scheduled.
        for (const item of await app.webhooks.deliver.claim({ limit: 20, perWebhook: 20 })) await app.webhooks.deliver.send(item);
        return;
      case 'purge':
        purged += await app.events.purge.execute({ retentionDays: 0 });
        return;
    }
    const ids = { cancel: w.transfers, 'delete-contact': w.contacts, 'delete-webhook': w.webhooks, pause: w.webhooks, activate: w.webhooks }[op.kind];
    if (ids.length === 0) return;
    const id = pick(ids, op.pick);
    if (op.kind === 'cancel') await app.transfers.cancel.execute({ customerId, transferId: id });
    else if (op.kind === 'delete-contact') await app.contacts.delete.execute({ customerId, contactId: id });
    else await app.webhooks[op.kind === 'delete-webhook' ? 'delete' : op.kind].execute({ customerId, webhookId: id });
  }

  /** Each list's X-Total-Count, unfiltered and by its counted filter, against count(*) of its rows. */
  async function listTotals(app: Application, w: World) {
    const { customerId } = w;
    const page = { page: 1, count: 1 };
    const counted = async (table: string, where: object) => Number((await db.knex(table).where(where).count({ n: '*' }))[0].n);
    const checks: Array<[string, Promise<{ total: number }>, Promise<number>]> = [
      ['contacts', app.contacts.list.execute({ filter: { customerId }, page }), counted('contacts', { customer_id: customerId })],
      ['webhooks', app.webhooks.list.execute({ filter: { customerId }, page }), counted('webhooks', { customer_id: customerId })],
    ];
    for (const status of [undefined, 'PENDING', 'SCHEDULED', 'FAILED', 'CANCELLED'] as const) {
      const filter = { customerId, ...(status ? { status } : {}) };
      checks.push([`transfers ${status}`, app.transfers.list.execute({ filter, page }), counted('transfers', { customer_id: customerId, ...(status ? { status } : {}) })]);
    }
    for (const type of [undefined, ...TYPES]) {
      const filter = { customerId, ...(type ? { type } : {}) };
      checks.push([`events ${type}`, app.events.list.execute({ filter, page }), counted('outbox_events', { customer_id: customerId, ...(type ? { type } : {}) })]);
    }
    for (const webhookId of await db.knex('webhooks').where({ customer_id: customerId }).pluck('id')) {
      for (const status of [undefined, 'PENDING', 'FAILED'] as const) {
        const listed = app.webhooks.deliveries.execute({ customerId, webhookId: Number(webhookId), filter: status ? { status } : {}, page });
        checks.push([`deliveries ${status}`, listed, counted('webhook_deliveries', { webhook_id: webhookId, ...(status ? { status } : {}) })]);
      }
    }
    const wrong = [];
    for (const [list, listed, rows] of checks) {
      const [total, n] = [(await listed).total, await rows];
      if (total !== n) wrong.push({ list, total, n });
    }
    return wrong;
  }

  it('keeps every count equal to count(*) through writes, dispatches, deliveries and purges, some of them racing', async () => {
    const racing = instances.length > 1;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(operation, { minLength: 1, maxLength: racing ? 4 : 1 }), { minLength: 5, maxLength: 25 }), async (rounds) => {
        const w = await world(instances[0].app);
        for (const round of rounds) {
          // A round's operations run at the same time, spread over the instances.
          await Promise.allSettled(round.map((op, i) => apply(instances[i % instances.length].app, w, op)));
        }
        expect(await countMismatches(db, w.customerId)).toEqual([]);
        expect(await listTotals(instances[0].app, w)).toEqual([]);
        const made = db.knex('list_counts').where({ customer_id: w.customerId }).groupBy('list', 'status').havingRaw('sum(n) > 0');
        for (const { list, status } of await made.select('list', 'status')) reached.add(`${list} ${status}`.trim());
      }),
      { numRuns: racing ? 12 : 6 },
    );
    expect(purged).toBeGreaterThan(0);
    const expected = ['transfers PENDING', 'transfers SCHEDULED', 'transfers FAILED', 'transfers CANCELLED', 'contacts', 'webhooks'];
    expect([...reached]).toEqual(expect.arrayContaining([...expected, 'webhook_deliveries FAILED', 'outbox_events transfer.failed']));
  }, 240_000);

  it('counts a purge of every dispatched event, and a webhook deletion taking its attempts with it', async () => {
    const { app } = instances[0];
    const w = await world(app);
    await apply(app, w, { kind: 'webhook' });
    for (const op of ['issue', 'issue', 'dispatch', 'deliver'] as const) await apply(app, w, { kind: op });
    const [webhookId] = w.webhooks;
    const total = async () => (await app.webhooks.deliveries.execute({ customerId: w.customerId, webhookId, filter: {}, page: { page: 1, count: 1 } })).total;
    expect(await total()).toBeGreaterThan(0);
    await app.webhooks.delete.execute({ customerId: w.customerId, webhookId });
    // Every customer's events are pending here: dispatch them all, so this one's can all go.
    while ((await app.webhooks.dispatch.execute({})) > 0);
    expect(await app.events.purge.execute({ retentionDays: 0 })).toBeGreaterThan(0);
    expect((await app.events.list.execute({ filter: { customerId: w.customerId }, page: { page: 1, count: 1 } })).total).toBe(0);
    expect(await countMismatches(db, w.customerId)).toEqual([]);
    expect(await db.knex('list_counts').where({ customer_id: w.customerId, list: 'webhook_deliveries' }).sum({ n: 'n' })).toEqual([{ n: '0' }]);
  });
});
