import { RECEIVABLE_STATUSES } from '@rcs/domain';
import { KnexReceivableAccountQueries } from '../src/repositories/knex-receivable-account-queries';
import { KnexReceivableQueries } from '../src/repositories/knex-receivable-queries';
import { insertAccountRow } from './support/account-row';
import { readsOf, scaleDatabase } from './support/reads';

/**
 * Routine statements over receivables and their accounts read what they answer or take, however many rows they pass
 * over would hold: each test seeds thousands of rows a statement used to read, and counts what it reads now
 * (support/reads.ts). Each of these read every such row before its fix (bench/README.md, "Reads that grew with the
 * rows they did not return").
 */
describe(`reads of receivables and their accounts that do not grow with the rows (${process.env.RCS_TEST_STORAGE})`, () => {
  const s = scaleDatabase();

  describe("the expiry job's pick", () => {
    const TODAY = '2026-03-10';
    /** `count` receivables of the account, straight into the table: `type` and `status`, due a day apart before TODAY. */
    const seed = (customerId: number, accountId: number, count: number, type: string, status: string) =>
      s.db.knex.raw(
        `INSERT INTO receivables (customer_id, receivable_account_id, amount_minor, currency_code, receivable_type, status, due_date,
           receivable_date, creation_date, modification_date, version)
         SELECT ?, ?, 100, 'ARS', ?, ?, DATE '2026-03-09' - (n % 300), DATE '2025-01-01', now(), now(), 1 FROM generate_series(1, ?) n`,
        [customerId, accountId, type, status, count],
      );

    it('reads the batch it takes, not the paid or settled history or the other queues', async () => {
      const [mine, theirs] = [await s.aCustomer('expiring'), await s.aCustomer('expiring elsewhere')];
      const [myAccount, theirAccount] = [await s.anAccount(mine), await s.anAccount(theirs)];
      await seed(mine, myAccount, 4_000, 'INVOICE', 'SETTLED');
      await seed(mine, myAccount, 2_000, 'INVOICE', 'PAID');
      await seed(theirs, theirAccount, 2_000, 'INVOICE', 'PENDING');
      await seed(mine, myAccount, 30, 'DEBT', 'PENDING');
      await s.db.knex.raw('ANALYZE receivables');

      const batch = await readsOf(s.uow, ['receivables'], (bound) => bound.run((tx) => tx.receivables.dueForExpiry(TODAY, 20, mine)));
      expect(batch.result).toHaveLength(20);
      expect(batch.result.every((r) => r.toSnapshot().customerId === mine && r.toSnapshot().receivableType === 'DEBT')).toBe(true);
      // An index entry and a row for each taken, and the probe's end; the old pick read thousands.
      expect(batch.read).toBeLessThan(60);

      // The daily job's pick, every customer's: a batch of 50 from the two queues, as cheaply.
      const daily = await readsOf(s.uow, ['receivables'], (bound) => bound.run((tx) => tx.receivables.dueForExpiry(TODAY, 50)));
      expect(daily.result).toHaveLength(50);
      expect(daily.read).toBeLessThan(150);
    });
  });

  it("reads page 1 of a customer's receivable accounts from the index in order, with or without a status, of one owner or branch too", async () => {
    const customerId = await s.aCustomer('many accounts');
    // 3,000 clients with an account each, 1 in 10 disabled, created a second apart.
    await s.db.knex.raw(
      `WITH c AS (
         INSERT INTO clients (customer_id, business_name, tax_id, document_type, creation_date, modification_date, version)
         SELECT ?, 'Client ' || n, lpad(n::text, 11, '0'), 'CUIT', now(), now(), 1 FROM generate_series(1, 3000) n RETURNING id
       )
       INSERT INTO receivable_accounts (customer_id, client_id, currency_code, status, disabled_reason, creation_date, modification_date, version)
       SELECT ?, c.id, 'ARS', CASE WHEN c.id % 10 = 0 THEN 'DISABLED' ELSE 'ACTIVE' END,
         CASE WHEN c.id % 10 = 0 THEN 'DISABLED_BY_CUSTOMER' END, now() - c.id * interval '1 second', now(), 1 FROM c`,
      [customerId, customerId],
    );
    await s.db.knex.raw('ANALYZE receivable_accounts, clients');
    const disabled = Number(
      (await s.db.knex('receivable_accounts').where({ customer_id: customerId, status: 'DISABLED' }).count<{ n: string }[]>({ n: '*' }))[0].n,
    );

    for (const status of [undefined, 'ACTIVE' as const]) {
      const { result, read } = await readsOf(s.uow, ['receivable_accounts'], (bound) =>
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
    const [associate] = await s.db.knex('associates').insert(
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
    await s.db.knex.raw('UPDATE receivable_accounts SET associate_id = ? WHERE customer_id = ? AND client_id % 10 = 1', [associate.id, customerId]);
    await s.db.knex.raw(`UPDATE clients SET branch_external_code = 'B-1' WHERE customer_id = ? AND id % 600 = 7`, [customerId]);
    await s.db.knex.raw('ANALYZE receivable_accounts, clients');
    // The branch's clients are read too: without their index, every client of the customer was.
    for (const [filter, total, tables] of [
      [{ associateId: Number(associate.id), status: 'ACTIVE' as const }, 300, ['receivable_accounts']],
      [{ associateId: Number(associate.id) }, 300, ['receivable_accounts']],
      [{ branchExternalCode: 'B-1' }, 5, ['receivable_accounts', 'clients']],
    ] as const) {
      const { result, read } = await readsOf(s.uow, tables, (bound) =>
        new KnexReceivableAccountQueries(() => bound.executor()).list({ customerId, ...filter }, { page: 1, count: 20 }),
      );
      expect([result.items.length, result.total]).toEqual([Math.min(20, total), total]);
      // Their own entries and rows: the associate's 300 sorted, or the customer's accounts walked, read hundreds more.
      expect(read).toBeLessThan(100);
    }
  });

  it("reads a page of credit notes and its total from their own index, with or without a status, and the invoices' total by them", async () => {
    const customerId = await s.aCustomer('by type');
    const accountId = await s.anAccount(customerId);
    // 4,000 receivables a second apart, statuses in turn; 1 in 100 a credit note.
    await s.db.knex.raw(
      `INSERT INTO receivables (customer_id, receivable_account_id, amount_minor, currency_code, receivable_type, status, receivable_date,
         creation_date, modification_date, version)
       SELECT ?, ?, 100, 'ARS', CASE WHEN n % 100 = 0 THEN 'CREDIT_NOTE' ELSE 'INVOICE' END, (?::text[])[1 + n % 5], DATE '2026-01-01',
         now() - n * interval '1 second', now(), 1
       FROM generate_series(1, 4000) n`,
      [customerId, accountId, [...RECEIVABLE_STATUSES]],
    );
    await s.db.knex.raw('ANALYZE receivables');

    const list = (filter: { status?: (typeof RECEIVABLE_STATUSES)[number]; receivableType: 'CREDIT_NOTE' | 'RETENTION' | 'INVOICE' }, plans = 'auto') =>
      readsOf(s.uow, ['receivables'], async (bound) => {
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

  describe('stats.pendingAmount', () => {
    /** `n` PENDING receivables on the account in one statement: invoices of 1.00 and, every fourth, a credit note of 0.25. */
    const pending = (customerId: number, accountId: number, n: number) =>
      s.db.knex.raw(
        `INSERT INTO receivables (customer_id, receivable_account_id, amount_minor, currency_code, receivable_type, status, receivable_date,
           creation_date, modification_date, version)
         SELECT ?, ?, CASE WHEN i % 4 = 0 THEN 25 ELSE 100 END, 'ARS', CASE WHEN i % 4 = 0 THEN 'CREDIT_NOTE' ELSE 'INVOICE' END, 'PENDING',
           '2026-03-01', now(), now(), 1
         FROM generate_series(1, ?) i`,
        [customerId, accountId, n],
      );

    it("reads an account's pending amount from a few rows, however many PENDING receivables it holds", async () => {
      const customerId = await s.aCustomer('pending');
      const accounts = [
        await insertAccountRow(s.db.knex, customerId, 1, { status: 'ACTIVE' }),
        await insertAccountRow(s.db.knex, customerId, 2, { status: 'ACTIVE' }),
      ];
      for (const account of accounts) await pending(customerId, account, 4_000);
      // 3,000 invoices of 100 and 1,000 credit notes of 25: amounts, each positive whatever its type (SPEC).
      const expected = 3_000n * 100n + 1_000n * 25n;

      const { result, read } = await readsOf(s.uow, ['receivables', 'list_counts'], async (bound) => {
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
