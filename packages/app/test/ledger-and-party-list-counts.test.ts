import fc from 'fast-check';
import { Money, OPERATION_TYPES, type Application } from '@rcs/domain';
import { validTaxId } from '@rcs/domain/testing';
import { assertAfterRandomMix, collectFive, countMismatches, racingInstances, wrongTotals, type TotalCheck } from './support/list-count-checks';
import { seedMoney } from './support/settlement-world';

/**
 * The maintained counts of movements, settlements, clients, associates and route settlements (migration 027)
 * against count(*) after a random mix of the writes that make their rows (collections, settlement cycles,
 * internal transfers, registrations and changes of clients, associates and route settlements), racing on two
 * instances; and each list's X-Total-Count for its counted filters.
 */
describe('maintained counts of the ledger and party lists', () => {
  const suite = racingInstances();

  interface World {
    readonly customerId: number;
    readonly credentialId: number;
    readonly receivableAccounts: number[];
    readonly mainId: number;
    readonly subId: number;
    readonly clients: number[];
    readonly associates: number[];
  }

  async function world(app: Application): Promise<World> {
    const { customerId } = await seedMoney(suite.db, app, 2);
    const ids = async (table: string, where: object) => (await suite.db.knex(table).where(where).orderBy('id').pluck('id')).map(Number);
    const [credentialId] = await ids('credentials', { customer_id: customerId });
    return {
      customerId,
      credentialId,
      receivableAccounts: await ids('receivable_accounts', { customer_id: customerId }),
      mainId: (await ids('current_accounts', { customer_id: customerId, account_type: 'MAIN' }))[0],
      subId: (await ids('current_accounts', { customer_id: customerId, account_type: 'SUB' }))[0],
      clients: await ids('clients', { customer_id: customerId }),
      associates: [],
    };
  }

  type Operation =
    | { kind: 'settle' | 'process' }
    | { kind: 'collect'; account: number }
    | { kind: 'transfer' | 'client' | 'associate'; n: number }
    | { kind: 'replace-client' | 'disable' | 'activate'; pick: number }
    | { kind: 'route'; n: number; pick: number };

  const operation: fc.Arbitrary<Operation> = fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('collect' as const), account: fc.nat(1) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('settle' as const) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('transfer' as const), n: fc.nat(3) }) },
    fc.record({ kind: fc.constant('process' as const) }),
    ...(['client', 'associate'] as const).map((kind) => fc.record({ kind: fc.constant(kind), n: fc.nat(5) })),
    ...(['replace-client', 'disable', 'activate'] as const).map((kind) => fc.record({ kind: fc.constant(kind), pick: fc.nat() })),
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('route' as const), n: fc.nat(5), pick: fc.nat() }) },
  );

  const clientDetails = (n: number) => ({
    businessName: `Client ${n}`,
    taxId: validTaxId('30', 50_000_000 + n),
    documentType: 'CUIT' as const,
    email: null,
    branchExternalCode: null,
    branchDescription: null,
    branchReferenceAddress: null,
    externalId: null,
  });

  /** Runs one operation; refusals (a balance short, a move the state forbids, a race lost) are outcomes like any other. */
  async function apply(app: Application, w: World, op: Operation): Promise<void> {
    const { customerId } = w;
    const pick = (ids: number[], n: number) => ids[n % ids.length];
    switch (op.kind) {
      case 'collect':
        await collectFive(app, customerId, w.receivableAccounts[op.account]);
        return;
      case 'settle':
        await app.settlements.run.execute({ customerId });
        return;
      case 'transfer':
        // Paid by the next process, from MAIN's settled money, back and forth: no provider involved.
        await app.transfers.create.execute({
          customerId,
          credentialId: w.credentialId,
          type: 'INTERNAL_TRANSFER',
          sourceAccountId: op.n % 2 === 0 ? w.mainId : w.subId,
          amount: Money.parse(`${op.n + 1}.00`),
          currencyCode: 'ARS',
          destination: { accountId: op.n % 2 === 0 ? w.subId : w.mainId },
        });
        return;
      case 'process':
        await app.transfers.process.execute({ customerId });
        return;
      case 'client': {
        const { client } = await app.clients.register.execute({ customerId, details: clientDetails(op.n) });
        if (!w.clients.includes(client.id)) w.clients.push(client.id);
        return;
      }
      case 'replace-client': {
        const client = (await app.clients.get.execute({ customerId, clientId: pick(w.clients, op.pick) })).toSnapshot();
        await app.clients.replace.execute({ customerId, clientId: client.id, details: { ...client, email: `c${op.pick}@example.com` } });
        return;
      }
      case 'associate': {
        const details = {
          type: 'DRIVER',
          name: 'Ana',
          lastName: `N${op.n}`,
          taxId: validTaxId('20', 40_000_000 + op.n),
          documentNumber: String(40_000_000 + op.n),
          email: 'a@example.com',
          phone: '+541100000000',
          address: null,
          parentAssociateId: null,
        };
        const { associate } = await app.associates.register.execute({ customerId, details });
        if (!w.associates.includes(associate.id)) w.associates.push(associate.id);
        return;
      }
      case 'disable':
      case 'activate':
        if (w.associates.length > 0) await app.associates[op.kind].execute({ customerId, associateId: pick(w.associates, op.pick) });
        return;
      case 'route':
        if (w.associates.length > 0)
          await app.routeSettlements.register.execute({ customerId, routeCode: `R${op.n}`, date: '2026-03-02', associateId: pick(w.associates, op.pick) });
        return;
    }
  }

  /** Each list's X-Total-Count, unfiltered and by its counted filter, against count(*) of its rows. */
  async function listTotals(app: Application, w: World) {
    const { customerId } = w;
    const page = { page: 1, count: 1 };
    const counted = async (table: string, where: object) => Number((await suite.db.knex(table).where(where).count({ n: '*' }))[0].n);
    const accounts = [
      ...w.receivableAccounts.map((accountId) => ({ accountId, accountKind: 'RECEIVABLE' as const })),
      ...[w.mainId, w.subId].map((accountId) => ({ accountId, accountKind: 'CURRENT' as const })),
    ];
    const checks: TotalCheck[] = [['clients', app.clients.list.execute({ filter: { customerId }, page }), counted('clients', { customer_id: customerId })]];
    for (const account of accounts) {
      for (const operationType of [undefined, ...OPERATION_TYPES]) {
        const filter = { customerId, ...account, order: 'desc' as const, ...(operationType ? { operationType } : {}) };
        const rows = { account_id: account.accountId, ...(operationType ? { operation_type: operationType } : {}) };
        checks.push([`movements ${account.accountId} ${operationType}`, app.movements.list.execute({ filter, page }), counted('movements', rows)]);
      }
    }
    for (const receivableAccountId of [undefined, ...w.receivableAccounts]) {
      const filter = { customerId, ...(receivableAccountId ? { receivableAccountId } : {}) };
      const rows = { customer_id: customerId, ...(receivableAccountId ? { receivable_account_id: receivableAccountId } : {}) };
      checks.push([`settlements ${receivableAccountId}`, app.settlements.list.execute({ filter, page }), counted('settlements', rows)]);
    }
    for (const status of [undefined, 'ACTIVE', 'DISABLED'] as const) {
      const filter = { customerId, ...(status ? { status } : {}) };
      checks.push([
        `associates ${status}`,
        app.associates.list.execute({ filter, page }),
        counted('associates', { customer_id: customerId, ...(status ? { status } : {}) }),
      ]);
    }
    for (const associateId of [undefined, ...w.associates]) {
      const filter = { customerId, ...(associateId ? { associateId } : {}) };
      const rows = { customer_id: customerId, ...(associateId ? { associate_id: associateId } : {}) };
      checks.push([`route settlements ${associateId}`, app.routeSettlements.list.execute({ filter, page }), counted('route_settlements', rows)]);
    }
    return wrongTotals(checks);
  }

  /** What the mix wrote, noted as it succeeds: it must reach the lists it claims to test. */
  const reached = new Set<string>();

  it('keeps every count equal to count(*) through collections, settlements, transfers and party changes, some of them racing', async () => {
    await assertAfterRandomMix(suite.instances, operation, {
      world,
      apply: async (app, w, op) => {
        await apply(app, w, op);
        reached.add(op.kind);
      },
      check: async (w) => {
        expect(await countMismatches(suite.db, w.customerId)).toEqual([]);
        expect(await listTotals(suite.instances[0].app, w)).toEqual([]);
      },
      // Transfers need settled money, and route settlements and a disable an associate, before them.
      first: [
        [{ kind: 'settle' }],
        [
          { kind: 'transfer', n: 0 },
          { kind: 'associate', n: 1 },
        ],
        [{ kind: 'process' }, { kind: 'route', n: 0, pick: 0 }],
        // The random rounds may never draw a disable that succeeds (one in a few hundred runs on PGlite did not), nor a
        // client (a CI run on PostgreSQL did not): each kind the last assertion names is drawn here once.
        [
          { kind: 'disable', pick: 0 },
          { kind: 'client', n: 0 },
          { kind: 'collect', account: 0 },
        ],
      ],
    });
    expect([...reached]).toEqual(expect.arrayContaining(['collect', 'settle', 'process', 'client', 'associate', 'disable', 'route']));
  }, 240_000);

  it('answers each list from the counts through every kind of movement and a disabled associate', async () => {
    const { app } = suite.instances[0];
    const w = await world(app);
    const walk: Operation[] = [
      { kind: 'settle' },
      { kind: 'transfer', n: 0 },
      { kind: 'process' },
      { kind: 'collect', account: 0 },
      { kind: 'associate', n: 0 },
      { kind: 'associate', n: 1 },
      { kind: 'disable', pick: 1 },
      { kind: 'route', n: 0, pick: 0 },
      { kind: 'client', n: 0 },
    ];
    for (const op of walk) await apply(app, w, op);
    const kept = async (list: string) =>
      suite.db.knex('list_counts').where({ customer_id: w.customerId, list }).groupBy('status').havingRaw('sum(n) > 0').orderBy('status').pluck('status');
    expect(await kept('movements')).toEqual(['DEPOSIT', 'SETTLEMENT', 'TRANSFER']);
    expect(await kept('associates')).toEqual(['ACTIVE', 'DISABLED']);
    for (const list of ['settlements', 'clients', 'route_settlements']) expect(await kept(list)).toEqual(['']);
    expect(await countMismatches(suite.db, w.customerId)).toEqual([]);
    expect(await listTotals(app, w)).toEqual([]);
  });
});
