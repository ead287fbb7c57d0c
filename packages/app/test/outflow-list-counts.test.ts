import fc from 'fast-check';
import { composeCvu, Money, type Application, type EventType } from '@rcs/domain';
import { A_CBU, validTaxId } from '@rcs/domain/testing';
import { assertAfterRandomMix, countMismatches, racingInstances, wrongTotals, type TotalCheck } from './support/list-count-checks';
import { seedMoney } from './support/settlement-world';
import { dayFromToday } from './support/transfer-fixtures';

/**
 * The maintained counts of transfers, events, webhook attempts, recipients and webhooks (migration 018) against
 * count(*) after a random mix of writes, racing on two instances, with the dispatcher, the delivery worker and
 * the event purge among them; and each list's X-Total-Count for its counted filters.
 */
describe('maintained counts of the outflow lists', () => {
  const suite = racingInstances();

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
    const { customerId } = await seedMoney(suite.db, app, 1);
    const id = async (table: string, where: object) => Number((await suite.db.knex(table).where(where).first<{ id: string }>('id')).id);
    const credential = await suite.db.knex('credentials').where({ customer_id: customerId }).first<{ id: string }>('id');
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

  /** Every due attempt, any customer's: nothing listens at the webhooks' url, so each fails and its retry is due later. */
  async function deliverAllDue(app: Application): Promise<void> {
    for (;;) {
      const due = await app.webhooks.deliver.claim({ limit: 50, perWebhook: 50 });
      if (due.length === 0) return;
      await Promise.all(due.map((item) => app.webhooks.deliver.send(item)));
    }
  }

  /**
   * Events purged, and the lists the mix wrote rows of (list and status): it must reach what it claims to test.
   * Noted when the write succeeds, not read from the counts at a check: a later delete in the same run may have
   * brought them back to zero, which says nothing about whether they were exercised.
   */
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
        reached.add(`transfers ${transfer.status}`);
        return;
      }
      case 'process':
        // As of tomorrow: the scheduled ones are due too.
        await app.transfers.process.execute({ customerId, day: dayFromToday(1) });
        return;
      case 'contact': {
        const destination = { cbuCvu: composeCvu('0110599', BigInt(op.n + 1)), alias: null, entity: 'Banco' };
        w.contacts.push((await app.contacts.create.execute({ customerId, details: { name: 'R', taxId: validTaxId('20', 30000000 + op.n) }, destination })).id);
        reached.add('contacts');
        return;
      }
      case 'webhook':
        w.webhooks.push((await app.webhooks.register.execute({ customerId, url: 'https://127.0.0.1:9/hook', events: TYPES })).webhook.id);
        reached.add('webhooks');
        return;
      case 'dispatch':
        await app.webhooks.dispatch.execute({});
        return;
      case 'deliver':
        await deliverAllDue(app);
        return;
      case 'purge':
        purged += (await app.events.purge.execute({ retentionDays: 0 })).events;
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
    const counted = async (table: string, where: object) => Number((await suite.db.knex(table).where(where).count({ n: '*' }))[0].n);
    const checks: TotalCheck[] = [
      ['contacts', app.contacts.list.execute({ filter: { customerId }, page }), counted('contacts', { customer_id: customerId })],
      ['webhooks', app.webhooks.list.execute({ filter: { customerId }, page }), counted('webhooks', { customer_id: customerId })],
    ];
    for (const status of [undefined, 'PENDING', 'SCHEDULED', 'FAILED', 'CANCELLED'] as const) {
      const filter = { customerId, ...(status ? { status } : {}) };
      checks.push([
        `transfers ${status}`,
        app.transfers.list.execute({ filter, page }),
        counted('transfers', { customer_id: customerId, ...(status ? { status } : {}) }),
      ]);
    }
    for (const type of [undefined, ...TYPES]) {
      const filter = { customerId, ...(type ? { type } : {}) };
      checks.push([
        `events ${type}`,
        app.events.list.execute({ filter, page }),
        counted('outbox_events', { customer_id: customerId, ...(type ? { type } : {}) }),
      ]);
    }
    for (const webhookId of await suite.db.knex('webhooks').where({ customer_id: customerId }).pluck('id')) {
      for (const status of [undefined, 'PENDING', 'FAILED'] as const) {
        const listed = app.webhooks.deliveries.execute({ customerId, webhookId: Number(webhookId), filter: status ? { status } : {}, page });
        checks.push([`deliveries ${status}`, listed, counted('webhook_deliveries', { webhook_id: webhookId, ...(status ? { status } : {}) })]);
      }
    }
    return wrongTotals(checks);
  }

  it('keeps every count equal to count(*) through writes, dispatches, deliveries and purges, some of them racing', async () => {
    await assertAfterRandomMix(suite.instances, operation, {
      world,
      apply,
      check: async (w) => {
        expect(await countMismatches(suite.db, w.customerId)).toEqual([]);
        expect(await listTotals(suite.instances[0].app, w)).toEqual([]);
      },
      // A purge needs dispatched events before it: drawn at random, six runs on one instance missed it once.
      first: [
        [{ kind: 'issue' }, { kind: 'transfer', scheduled: false }],
        [{ kind: 'dispatch' }, { kind: 'contact', n: 0 }],
        [{ kind: 'purge' }, { kind: 'webhook' }],
      ],
    });
    // The mix reached the lists at all (the walk below reaches each of their states).
    expect(purged).toBeGreaterThan(0);
    expect([...reached]).toEqual(expect.arrayContaining(['transfers PENDING', 'contacts', 'webhooks']));
  }, 240_000);

  it('walks every operation once, reaching each state the lists count, through a purge and a webhook deletion', async () => {
    const { app } = suite.instances[0];
    const w = await world(app);
    const walk: Operation[] = [
      ...[false, true, true].map((scheduled) => ({ kind: 'transfer' as const, scheduled })),
      { kind: 'cancel', pick: 2 },
      ...[0, 1].map((n) => ({ kind: 'contact' as const, n })),
      { kind: 'delete-contact', pick: 0 },
      { kind: 'webhook' },
      { kind: 'issue' },
    ];
    for (const op of walk) await apply(app, w, op);
    // Every customer's events are pending here: dispatch them all, this one's with them.
    while ((await app.webhooks.dispatch.execute({})) > 0);
    await apply(app, w, { kind: 'deliver' });
    await apply(app, w, { kind: 'process' });
    const statuses = async (list: string) =>
      suite.db.knex('list_counts').where({ customer_id: w.customerId, list }).groupBy('status').havingRaw('sum(n) > 0').pluck('status');
    expect(await statuses('transfers')).toEqual(expect.arrayContaining(['FAILED', 'CANCELLED']));
    expect(await statuses('webhook_deliveries')).toEqual(expect.arrayContaining(['FAILED', 'PENDING']));
    expect(await statuses('outbox_events')).toEqual(expect.arrayContaining(['receivable.created', 'transfer.failed']));
    expect(await countMismatches(suite.db, w.customerId)).toEqual([]);
    expect(await listTotals(app, w)).toEqual([]);

    await apply(app, w, { kind: 'delete-webhook', pick: 0 });
    while ((await app.webhooks.dispatch.execute({})) > 0);
    await apply(app, w, { kind: 'purge' });
    expect((await app.events.list.execute({ filter: { customerId: w.customerId }, page: { page: 1, count: 1 } })).total).toBe(0);
    expect(await countMismatches(suite.db, w.customerId)).toEqual([]);
    // Its only webhook deleted, no count of attempts is left, not even at 0.
    expect(await suite.db.knex('list_counts').where({ customer_id: w.customerId, list: 'webhook_deliveries' })).toEqual([]);
  });

  it("removes a deleted webhook's attempt counts, the other webhooks' left as they were", async () => {
    const { app } = suite.instances[0];
    const w = await world(app);
    for (const op of [{ kind: 'webhook' }, { kind: 'webhook' }, { kind: 'issue' }] as const) await apply(app, w, op);
    while ((await app.webhooks.dispatch.execute({})) > 0);
    await apply(app, w, { kind: 'deliver' });
    const [deleted, kept] = w.webhooks;
    const counts = (webhookId: number) =>
      suite.db
        .knex('list_counts')
        .where({ list: 'webhook_deliveries', scope: 'webhook', scope_id: webhookId })
        .orderBy(['status', 'slot'])
        .select('status', 'slot', 'n');
    const before = await counts(kept);
    expect(await counts(deleted)).not.toEqual([]);
    expect(before).not.toEqual([]);

    await apply(app, w, { kind: 'delete-webhook', pick: 0 });
    expect(await counts(deleted)).toEqual([]);
    expect(await counts(kept)).toEqual(before);
    expect(await countMismatches(suite.db, w.customerId)).toEqual([]);
  });
});
