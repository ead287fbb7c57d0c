import { DEFAULT_CUSTOMER_SETTINGS, RECEIVABLE_STATUSES, Webhook, type MovementListFilter, type PageRequest } from '@rcs/domain';
import { aSource, aTransferDraft } from '@rcs/domain/testing';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { KnexLedgerQueries } from '../src/repositories/knex-ledger';
import { KnexTransferQueries } from '../src/repositories/knex-transfer-repository';
import { KnexWebhookQueries } from '../src/repositories/knex-webhook-repository';
import { KnexReceivableAccountQueries } from '../src/repositories/knex-receivable-account-queries';
import { KnexReceivableQueries } from '../src/repositories/knex-receivable-queries';
import { insertAccountRow } from './support/account-row';
import { readsOf } from './support/reads';
import { openTestDatabase, type TestDatabase } from '../testing';

/**
 * Routine statements read what they answer or take, however many rows they pass over would hold: each test seeds
 * thousands of rows a statement used to read, and counts what it reads now (support/reads.ts). Each of these read
 * every such row before its fix (bench/README.md, "Reads that grew with the rows they did not return").
 */
describe(`reads that do not grow with the rows (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;

  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: 2 });
    uow = new KnexUnitOfWork(db.knex);
  });
  afterAll(async () => db.close());

  const aCustomer = async (name: string) =>
    (await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name, creationDate: new Date() }))).customer.id;
  const anAccount = (customerId: number) => insertAccountRow(db.knex, customerId, customerId, { status: 'ACTIVE' });

  describe("the expiry job's pick", () => {
    const TODAY = '2026-03-10';
    /** `count` receivables of the account, straight into the table: `type` and `status`, due a day apart before TODAY. */
    const seed = (customerId: number, accountId: number, count: number, type: string, status: string) =>
      db.knex.raw(
        `INSERT INTO receivables (customer_id, receivable_account_id, amount_minor, currency_code, receivable_type, status, due_date,
           receivable_date, creation_date, modification_date, version)
         SELECT ?, ?, 100, 'ARS', ?, ?, DATE '2026-03-09' - (n % 300), DATE '2025-01-01', now(), now(), 1 FROM generate_series(1, ?) n`,
        [customerId, accountId, type, status, count],
      );

    it('reads the batch it takes, not the paid or settled history or the other queues', async () => {
      const [mine, theirs] = [await aCustomer('expiring'), await aCustomer('expiring elsewhere')];
      const [myAccount, theirAccount] = [await anAccount(mine), await anAccount(theirs)];
      await seed(mine, myAccount, 4_000, 'INVOICE', 'SETTLED');
      await seed(mine, myAccount, 2_000, 'INVOICE', 'PAID');
      await seed(theirs, theirAccount, 2_000, 'INVOICE', 'PENDING');
      await seed(mine, myAccount, 30, 'DEBT', 'PENDING');
      await db.knex.raw('ANALYZE receivables');

      const batch = await readsOf(uow, ['receivables'], (bound) => bound.run((tx) => tx.receivables.dueForExpiry(TODAY, 20, mine)));
      expect(batch.result).toHaveLength(20);
      expect(batch.result.every((r) => r.toSnapshot().customerId === mine && r.toSnapshot().receivableType === 'DEBT')).toBe(true);
      // An index entry and a row for each taken, and the probe's end; the old pick read thousands.
      expect(batch.read).toBeLessThan(60);

      // The daily job's pick, every customer's: a batch of 50 from the two queues, as cheaply.
      const daily = await readsOf(uow, ['receivables'], (bound) => bound.run((tx) => tx.receivables.dueForExpiry(TODAY, 50)));
      expect(daily.result).toHaveLength(50);
      expect(daily.read).toBeLessThan(150);
    });
  });

  it("reads page 1 of a customer's receivable accounts from the index in order, with or without a status, of one owner or branch too", async () => {
    const customerId = await aCustomer('many accounts');
    // 3,000 clients with an account each, 1 in 10 disabled, created a second apart.
    await db.knex.raw(
      `WITH c AS (
         INSERT INTO clients (customer_id, business_name, tax_id, document_type, creation_date, modification_date, version)
         SELECT ?, 'Client ' || n, lpad(n::text, 11, '0'), 'CUIT', now(), now(), 1 FROM generate_series(1, 3000) n RETURNING id
       )
       INSERT INTO receivable_accounts (customer_id, client_id, currency_code, status, disabled_reason, creation_date, modification_date, version)
       SELECT ?, c.id, 'ARS', CASE WHEN c.id % 10 = 0 THEN 'DISABLED' ELSE 'ACTIVE' END,
         CASE WHEN c.id % 10 = 0 THEN 'DISABLED_BY_CUSTOMER' END, now() - c.id * interval '1 second', now(), 1 FROM c`,
      [customerId, customerId],
    );
    await db.knex.raw('ANALYZE receivable_accounts, clients');
    const disabled = Number(
      (await db.knex('receivable_accounts').where({ customer_id: customerId, status: 'DISABLED' }).count<{ n: string }[]>({ n: '*' }))[0].n,
    );

    for (const status of [undefined, 'ACTIVE' as const]) {
      const { result, read } = await readsOf(uow, ['receivable_accounts'], (bound) =>
        new KnexReceivableAccountQueries(() => bound.executor()).list({ customerId, status }, { page: 1, count: 20 }),
      );
      expect(result.items).toHaveLength(20);
      expect(result.total).toBe(status === undefined ? 3_000 : 3_000 - disabled);
      // Newest first, as the list promises.
      const created = result.items.map((record) => record.account.toSnapshot().creationDate.getTime());
      expect(created).toEqual([...created].sort((a, b) => b - a));
      // A page and a few entries past it in each status's range; sorting the customer's accounts read all 3,000.
      expect(read).toBeLessThan(150);
    }

    // One associate's 300 accounts, and the 5 accounts of clients of one branch, among the 3,000.
    const [associate] = await db.knex('associates').insert(
      {
        customer_id: customerId,
        type: 'SELLER',
        name: 'Ana',
        last_name: 'Paz',
        tax_id: '20123456786',
        document_number: '12345678',
        email: 'ana@example.com',
        phone: '+5491155550123',
        status: 'ACTIVE',
        creation_date: new Date(),
        modification_date: new Date(),
        version: 1,
      },
      ['id'],
    );
    await db.knex.raw('UPDATE receivable_accounts SET associate_id = ? WHERE customer_id = ? AND client_id % 10 = 1', [associate.id, customerId]);
    await db.knex.raw(`UPDATE clients SET branch_external_code = 'B-1' WHERE customer_id = ? AND id % 600 = 7`, [customerId]);
    await db.knex.raw('ANALYZE receivable_accounts, clients');
    // The branch's clients are read too: without their index, every client of the customer was.
    for (const [filter, total, tables] of [
      [{ associateId: Number(associate.id), status: 'ACTIVE' as const }, 300, ['receivable_accounts']],
      [{ associateId: Number(associate.id) }, 300, ['receivable_accounts']],
      [{ branchExternalCode: 'B-1' }, 5, ['receivable_accounts', 'clients']],
    ] as const) {
      const { result, read } = await readsOf(uow, tables, (bound) =>
        new KnexReceivableAccountQueries(() => bound.executor()).list({ customerId, ...filter }, { page: 1, count: 20 }),
      );
      expect([result.items.length, result.total]).toEqual([Math.min(20, total), total]);
      // Their own entries and rows: the associate's 300 sorted, or the customer's accounts walked, read hundreds more.
      expect(read).toBeLessThan(100);
    }
  });

  it("reads a page of credit notes and its total from their own index, with or without a status, and the invoices' total by them", async () => {
    const customerId = await aCustomer('by type');
    const accountId = await anAccount(customerId);
    // 4,000 receivables a second apart, statuses in turn; 1 in 100 a credit note.
    await db.knex.raw(
      `INSERT INTO receivables (customer_id, receivable_account_id, amount_minor, currency_code, receivable_type, status, receivable_date,
         creation_date, modification_date, version)
       SELECT ?, ?, 100, 'ARS', CASE WHEN n % 100 = 0 THEN 'CREDIT_NOTE' ELSE 'INVOICE' END, (?::text[])[1 + n % 5], DATE '2026-01-01',
         now() - n * interval '1 second', now(), 1
       FROM generate_series(1, 4000) n`,
      [customerId, accountId, [...RECEIVABLE_STATUSES]],
    );
    await db.knex.raw('ANALYZE receivables');

    const list = (filter: { status?: (typeof RECEIVABLE_STATUSES)[number]; receivableType: 'CREDIT_NOTE' | 'RETENTION' | 'INVOICE' }, plans = 'auto') =>
      readsOf(uow, ['receivables'], async (bound) => {
        // A named statement may come to run a generic plan, made without the type's value.
        await bound.executor().raw(`SELECT set_config('plan_cache_mode', ?, true)`, [plans]);
        return new KnexReceivableQueries(() => bound.executor()).list({ customerId, ...filter }, { page: 1, count: 20 });
      });

    const notes = await list({ receivableType: 'CREDIT_NOTE' });
    expect(notes.result.total).toBe(40);
    expect(notes.result.items.map((r) => r.toSnapshot().receivableType)).toEqual(Array(20).fill('CREDIT_NOTE'));
    const created = notes.result.items.map((r) => r.toSnapshot().creationDate.getTime());
    expect(created).toEqual([...created].sort((a, b) => b - a));
    const pendingNotes = await list({ receivableType: 'CREDIT_NOTE', status: RECEIVABLE_STATUSES[0] });
    const none = await list({ receivableType: 'RETENTION' });
    expect(none.result.total).toBe(0);
    const generic = await list({ receivableType: 'CREDIT_NOTE' }, 'force_generic_plan');
    expect(generic.result.total).toBe(40);
    // Invoices' totals: every type's, maintained, less the credit notes.
    const invoices = await list({ receivableType: 'INVOICE' });
    const pendingInvoices = await list({ receivableType: 'INVOICE', status: RECEIVABLE_STATUSES[0] });
    expect([invoices.result.total, pendingInvoices.result.total]).toEqual([3_960, 760]);
    expect(invoices.result.items.map((r) => r.toSnapshot().receivableType)).toEqual(Array(20).fill('INVOICE'));
    // A page and its total from the type's entries; without the index, the customer's 4,000 receivables, twice.
    for (const { read } of [notes, pendingNotes, none, generic, invoices, pendingInvoices]) expect(read).toBeLessThan(150);
  });

  it("reads an account's transfers, or its debits, among its settlement credits from their own ranges, in date order", async () => {
    const customerId = await aCustomer('movements by kind');
    // Movements name their account without a foreign key: any id serves.
    const accountId = 7_000_000 + customerId;
    // 3,000 movements a second apart: settlement credits, and every 300th a transfer's debit.
    await db.knex.raw(
      `INSERT INTO movements (customer_id, account_id, account_kind, movement_type, operation_type, amount_minor, currency_code, movement_date)
       SELECT ?, ?, 'CURRENT', CASE WHEN n % 300 = 0 THEN 'DEBIT' ELSE 'CREDIT' END, CASE WHEN n % 300 = 0 THEN 'TRANSFER' ELSE 'SETTLEMENT' END,
         100, 'ARS', now() - n * interval '1 second'
       FROM generate_series(1, 3000) n`,
      [customerId, accountId],
    );
    await db.knex.raw('ANALYZE movements');
    const list = (filter: Pick<MovementListFilter, 'movementType' | 'operationType'>) =>
      readsOf(uow, ['movements'], (bound) =>
        new KnexLedgerQueries(() => bound.executor()).listMovements(
          { customerId, accountId, accountKind: 'CURRENT', order: 'desc', ...filter },
          { page: 1, count: 20 },
        ),
      );

    const lists = [
      await list({ operationType: 'TRANSFER' }),
      await list({ movementType: 'DEBIT' }),
      await list({ operationType: 'TRANSFER', movementType: 'DEBIT' }),
    ];
    for (const { result, read } of lists) {
      expect(result.total).toBe(10);
      expect(result.items.map((m) => m.operationType)).toEqual(Array(10).fill('TRANSFER'));
      const dates = result.items.map((m) => m.movementDate.getTime());
      expect(dates).toEqual([...dates].sort((a, b) => b - a));
      // The ten debits' entries and rows, and the ranges' ends; the account's 2,990 credits read before.
      expect(read).toBeLessThan(100);
    }
    // Oldest first, by page number and by the next page's key alike.
    const oldestDebits = (page: PageRequest) =>
      new KnexLedgerQueries(() => db.knex).listMovements({ customerId, accountId, accountKind: 'CURRENT', order: 'asc', movementType: 'DEBIT' }, page);
    const first = await oldestDebits({ page: 1, count: 3 });
    const [second, after] = [await oldestDebits({ page: 2, count: 3 }), await oldestDebits({ page: 1, count: 3, after: first.next })];
    const dates = [...first.items, ...second.items].map((m) => m.movementDate.getTime());
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
    expect(after.items.map((m) => m.id)).toEqual(second.items.map((m) => m.id));
    expect([second.total, second.items.every((m) => m.movementType === 'DEBIT')]).toEqual([10, true]);
  });

  it("reads the transfer worker's queue up to today, however many transfers are scheduled for later days", async () => {
    const customerId = await aCustomer('scheduling');
    const on = await uow.run((tx) => aSource(tx, customerId));
    const now = await uow.run((tx) => tx.transfers.insert(aTransferDraft(on)));
    const dated = await uow.run((tx) => tx.transfers.insert(aTransferDraft(on, { status: 'SCHEDULED', scheduledDate: '2026-03-01' })));
    // 3,000 more like it, scheduled over the next 300 days.
    await db.knex.raw(
      `INSERT INTO transfers (customer_id, type, status, source_account_id, amount_minor, currency_code, destination_cbu_cvu,
         created_by_credential_id, scheduled_date, creation_date, modification_date, version)
       SELECT customer_id, type, status, source_account_id, amount_minor, currency_code, destination_cbu_cvu,
         created_by_credential_id, scheduled_date + 1 + n % 300, creation_date, modification_date, 1
       FROM transfers CROSS JOIN generate_series(1, 3000) n WHERE id = ?`,
      [dated.id],
    );
    await db.knex.raw('ANALYZE transfers');

    // On a table this small PostgreSQL may gather the due rows with a bitmap and sort them; on a large one (230,000
    // transfers, measured) it walks the due index in order instead, which is the plan whose reads this bounds.
    const { result, read } = await readsOf(uow, ['transfers'], async (bound) => {
      await bound.executor().raw(`SELECT set_config('enable_bitmapscan', 'off', true)`);
      return bound.run((tx) => tx.transfers.lockDue({ today: '2026-03-01', limit: 100, customerId: on.customerId }));
    });

    expect(result.map((t) => t.id)).toEqual([now.id, dated.id]);
    // The two due and the first entry past today; passing over the later days read 3,000 more.
    expect(read).toBeLessThan(20);
  });

  it("reads an account's transfers of one status, or all of them newest first, from the account's own ranges", async () => {
    const customerId = await aCustomer('transfers by account');
    const on = await uow.run((tx) => aSource(tx, customerId));
    const first = await uow.run((tx) => tx.transfers.insert(aTransferDraft(on)));
    // 3,000 more from the account, a second apart: completed, and every 300th failed; and 3,000 failed from the
    // customer's other account.
    await db.knex.raw(
      `INSERT INTO transfers (customer_id, type, status, failure_reason, source_account_id, amount_minor, currency_code, destination_cbu_cvu,
         created_by_credential_id, creation_date, modification_date, version)
       SELECT customer_id, type, CASE WHEN n % 300 = 0 OR n > 3000 THEN 'FAILED' ELSE 'COMPLETED' END,
         CASE WHEN n % 300 = 0 OR n > 3000 THEN 'destination-rejected' END, CASE WHEN n > 3000 THEN ? ELSE source_account_id END,
         amount_minor, currency_code, destination_cbu_cvu, created_by_credential_id, creation_date - n * interval '1 second', modification_date, 1
       FROM transfers CROSS JOIN generate_series(1, 6000) n WHERE id = ?`,
      [on.otherAccountId, first.id],
    );
    await db.knex.raw('ANALYZE transfers');
    const list = (status?: 'FAILED') =>
      readsOf(uow, ['transfers'], (bound) =>
        new KnexTransferQueries(() => bound.executor()).list({ customerId, sourceAccountId: on.sourceAccountId, status }, { page: 1, count: 20 }),
      );

    const failed = await list('FAILED');
    expect([failed.result.total, failed.result.items.map((t) => t.status)]).toEqual([10, Array(10).fill('FAILED')]);
    // The ten, neither the account's 2,990 completed ones nor the other account's 3,000 failed ones.
    expect(failed.read).toBeLessThan(60);
    const all = await list();
    expect([all.result.total, all.result.items[0].id]).toEqual([3_001, first.id]);
    const created = all.result.items.map((t) => t.toSnapshot().creationDate.getTime());
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });

  it("reads one event type's attempts of one status from a webhook's history without the other types' or statuses'", async () => {
    const customerId = await aCustomer('history by type and status');
    const subscription = { url: 'https://erp.example/hooks', events: ['receivable.paid' as const] };
    const webhook = await uow.run((tx) => tx.webhooks.insert(Webhook.register(customerId, subscription, { sealed: 's', tail: '0000' }, new Date())));
    // 3,000 attempts of receivable.paid a second apart, delivered but every 300th failed; 3,000 failed of movement.created.
    await db.knex.raw(
      `INSERT INTO webhook_deliveries (webhook_id, customer_id, event_id, event_type, attempt, status, payload, created_at)
       SELECT ?, ?, 'evt_h' || n, CASE WHEN n > 3000 THEN 'movement.created' ELSE 'receivable.paid' END, 1,
         CASE WHEN n % 300 = 0 OR n > 3000 THEN 'FAILED' ELSE 'SUCCESS' END, '{}', now() - n * interval '1 second'
       FROM generate_series(1, 6000) n`,
      [webhook.id, customerId],
    );
    await db.knex.raw('ANALYZE webhook_deliveries');
    // Index reads only: taking type and status for independent, PostgreSQL expects 1,505 matches of the two, not 10,
    // and counts them with a scan of this small table, where it reads a large one through the index.
    const history = (status?: 'FAILED') =>
      readsOf(
        uow,
        ['webhook_deliveries'],
        (bound) =>
          new KnexWebhookQueries(() => bound.executor()).deliveries(
            { webhookId: webhook.id, customerId, eventType: 'receivable.paid', status },
            { page: 1, count: 20 },
          ),
        { scans: false },
      );

    const failed = await history('FAILED');
    expect([failed.result.total, failed.result.items.map((d) => d.status)]).toEqual([10, Array(10).fill('FAILED')]);
    expect(failed.read).toBeLessThan(60);
    const all = await history();
    expect(all.result.total).toBe(3_000);
    const created = all.result.items.map((d) => d.createdAt.getTime());
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });

  it('finds the due transfers still named by an alias alone without reading those that name their CBU/CVU', async () => {
    const customerId = await aCustomer('aliases');
    const on = await uow.run((tx) => aSource(tx, customerId));
    const named = await uow.run((tx) => tx.transfers.insert(aTransferDraft(on)));
    // 3,000 due transfers like it, each naming its CBU/CVU.
    await db.knex.raw(
      `INSERT INTO transfers (customer_id, type, status, source_account_id, amount_minor, currency_code, destination_cbu_cvu,
         created_by_credential_id, scheduled_date, creation_date, modification_date, version)
       SELECT customer_id, type, status, source_account_id, amount_minor, currency_code, destination_cbu_cvu,
         created_by_credential_id, scheduled_date, creation_date, modification_date, 1
       FROM transfers CROSS JOIN generate_series(1, 3000) n WHERE id = ?`,
      [named.id],
    );
    await db.knex.raw('ANALYZE transfers');

    const { result, read } = await readsOf(uow, ['transfers'], (bound) =>
      bound.run((tx) => tx.transfers.dueUnresolved({ today: '2026-03-01', limit: 100, customerId })),
    );

    expect(result).toEqual([]);
    expect(read).toBeLessThan(20);
  });

  it('purges a batch of the oldest expired idempotency keys reading about that many, however many keys are live', async () => {
    const NOW = new Date('2026-03-10T12:00:00.000Z');
    // 40,000 live keys with narrow stored answers, 6,000 expired; the job's batch is 5,000.
    await db.knex.raw(
      `INSERT INTO idempotency_keys (credential_id, key, fingerprint, response_status, response_body, created_at, expires_at)
       SELECT n % 7 + 1, 'key-' || n, 'f', 201, '{}', ?::timestamptz - interval '1 day',
              ?::timestamptz + CASE WHEN n <= 6000 THEN -n ELSE n END * interval '1 second'
       FROM generate_series(1, 46000) n`,
      [NOW, NOW],
    );
    await db.knex.raw('ANALYZE idempotency_keys');

    const { result, read } = await readsOf(uow, ['idempotency_keys'], (bound) => bound.run((tx) => tx.idempotency.purgeExpired(NOW, 5_000)));

    expect(result).toBe(5_000);
    // The batch's index entries and its rows, locked then deleted: not the 46,000.
    expect(read).toBeLessThan(15_000);
    const left = await db.knex('idempotency_keys').where('expires_at', '<=', NOW).count<{ n: string }[]>({ n: '*' });
    expect(Number(left[0].n)).toBe(1_000);
  });

  describe('stats.pendingAmount', () => {
    /** `n` PENDING receivables on the account in one statement: invoices of 1.00 and, every fourth, a credit note of 0.25. */
    const pending = (customerId: number, accountId: number, n: number) =>
      db.knex.raw(
        `INSERT INTO receivables (customer_id, receivable_account_id, amount_minor, currency_code, receivable_type, status, receivable_date,
           creation_date, modification_date, version)
         SELECT ?, ?, CASE WHEN i % 4 = 0 THEN 25 ELSE 100 END, 'ARS', CASE WHEN i % 4 = 0 THEN 'CREDIT_NOTE' ELSE 'INVOICE' END, 'PENDING',
           '2026-03-01', now(), now(), 1
         FROM generate_series(1, ?) i`,
        [customerId, accountId, n],
      );

    it("reads an account's pending amount from a few rows, however many PENDING receivables it holds", async () => {
      const customerId = await aCustomer('pending');
      const accounts = [
        await insertAccountRow(db.knex, customerId, 1, { status: 'ACTIVE' }),
        await insertAccountRow(db.knex, customerId, 2, { status: 'ACTIVE' }),
      ];
      for (const account of accounts) await pending(customerId, account, 4_000);
      // 3,000 invoices of 100 and 1,000 credit notes of 25: amounts, each positive whatever its type (SPEC).
      const expected = 3_000n * 100n + 1_000n * 25n;

      const { result, read } = await readsOf(uow, ['receivables', 'list_counts'], async (bound) => {
        const queries = new KnexReceivableAccountQueries(() => bound.executor());
        const listed = await queries.list({ customerId }, { page: 1, count: 20 });
        return [
          (await queries.get(accounts[0]))?.pendingAmountMinor,
          ...listed.items.map((record) => record.pendingAmountMinor),
          await bound.run((tx) => tx.receivableAccounts.pendingAmountMinor(accounts[1])),
        ];
      });
      expect(result).toEqual([expected, expected, expected, expected]);
      // Four reads of at most 8 slots each (and their index entries), and the list's total: summing the receivables read 8,000 at least.
      expect(read).toBeLessThan(100);
    });
  });
});
