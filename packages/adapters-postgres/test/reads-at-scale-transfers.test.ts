import type { MovementListFilter, PageRequest, Transfer } from '@rcs/domain';
import { aSource, aTransferDraft } from '@rcs/domain/testing';
import { KnexLedgerQueries } from '../src/repositories/knex-ledger';
import { KnexTransferQueries } from '../src/repositories/knex-transfer-repository';
import { readsOf, scaleDatabase } from './support/reads';

/**
 * Routine statements over movements and transfers read what they answer or take, however many rows they pass over
 * would hold: each test seeds thousands of rows a statement used to read, and counts what it reads now
 * (support/reads.ts). Each of these read every such row before its fix (bench/README.md, "Reads that grew with the
 * rows they did not return").
 */
describe(`reads of movements and transfers that do not grow with the rows (${process.env.RCS_TEST_STORAGE})`, () => {
  const s = scaleDatabase();

  it("reads an account's transfers, or its debits, among its settlement credits from their own ranges, in date order", async () => {
    const customerId = await s.aCustomer('movements by kind');
    // Movements name their account without a foreign key: any id serves.
    const accountId = 7_000_000 + customerId;
    // 3,000 movements a second apart: settlement credits, and every 300th a transfer's debit.
    await s.db.knex.raw(
      `INSERT INTO movements (customer_id, account_id, account_kind, movement_type, operation_type, amount_minor, currency_code, movement_date)
       SELECT ?, ?, 'CURRENT', CASE WHEN n % 300 = 0 THEN 'DEBIT' ELSE 'CREDIT' END, CASE WHEN n % 300 = 0 THEN 'TRANSFER' ELSE 'SETTLEMENT' END,
         100, 'ARS', now() - n * interval '1 second'
       FROM generate_series(1, 3000) n`,
      [customerId, accountId],
    );
    await s.db.knex.raw('ANALYZE movements');
    const list = (filter: Pick<MovementListFilter, 'movementType' | 'operationType'>) =>
      readsOf(s.uow, ['movements'], (bound) =>
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
      new KnexLedgerQueries(() => s.db.knex).listMovements({ customerId, accountId, accountKind: 'CURRENT', order: 'asc', movementType: 'DEBIT' }, page);
    const first = await oldestDebits({ page: 1, count: 3 });
    const [second, after] = [await oldestDebits({ page: 2, count: 3 }), await oldestDebits({ page: 1, count: 3, after: first.next })];
    const dates = [...first.items, ...second.items].map((m) => m.movementDate.getTime());
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
    expect(after.items.map((m) => m.id)).toEqual(second.items.map((m) => m.id));
    expect([second.total, second.items.every((m) => m.movementType === 'DEBIT')]).toEqual([10, true]);
  });

  it("reads the transfer worker's queue up to today, however many transfers are scheduled for later days", async () => {
    const customerId = await s.aCustomer('scheduling');
    const on = await s.uow.run((tx) => aSource(tx, customerId));
    const now = await s.uow.run((tx) => tx.transfers.insert(aTransferDraft(on)));
    const dated = await s.uow.run((tx) => tx.transfers.insert(aTransferDraft(on, { status: 'SCHEDULED', scheduledDate: '2026-03-01' })));
    // 3,000 more like it, scheduled over the next 300 days.
    await s.db.knex.raw(
      `INSERT INTO transfers (customer_id, type, status, source_account_id, amount_minor, currency_code, destination_cbu_cvu,
         created_by_credential_id, scheduled_date, creation_date, modification_date, version)
       SELECT customer_id, type, status, source_account_id, amount_minor, currency_code, destination_cbu_cvu,
         created_by_credential_id, scheduled_date + 1 + n % 300, creation_date, modification_date, 1
       FROM transfers CROSS JOIN generate_series(1, 3000) n WHERE id = ?`,
      [dated.id],
    );
    await s.db.knex.raw('ANALYZE transfers');

    // On a table this small PostgreSQL may gather the due rows with a bitmap and sort them; on a large one (230,000
    // transfers, measured) it walks the due index in order instead, which is the plan whose reads this bounds.
    const { result, read } = await readsOf(s.uow, ['transfers'], async (bound) => {
      await bound.executor().raw(`SELECT set_config('enable_bitmapscan', 'off', true)`);
      return bound.run((tx) => tx.transfers.lockDue({ today: '2026-03-01', limit: 100, customerId: on.customerId }));
    });

    expect(result.map((t) => t.id)).toEqual([now.id, dated.id]);
    // The two due and the first entry past today; passing over the later days read 3,000 more.
    expect(read).toBeLessThan(20);
  });

  it("reads an account's transfers of one status, or all of them newest first, from the account's own ranges", async () => {
    const customerId = await s.aCustomer('transfers by account');
    const on = await s.uow.run((tx) => aSource(tx, customerId));
    const first = await s.uow.run((tx) => tx.transfers.insert(aTransferDraft(on)));
    // 3,000 more from the account, a second apart: completed, and every 300th failed; and 3,000 failed from the
    // customer's other account.
    await s.db.knex.raw(
      `INSERT INTO transfers (customer_id, type, status, failure_reason, source_account_id, amount_minor, currency_code, destination_cbu_cvu,
         created_by_credential_id, creation_date, modification_date, version)
       SELECT customer_id, type, CASE WHEN n % 300 = 0 OR n > 3000 THEN 'FAILED' ELSE 'COMPLETED' END,
         CASE WHEN n % 300 = 0 OR n > 3000 THEN 'destination-rejected' END, CASE WHEN n > 3000 THEN ? ELSE source_account_id END,
         amount_minor, currency_code, destination_cbu_cvu, created_by_credential_id, creation_date - n * interval '1 second', modification_date, 1
       FROM transfers CROSS JOIN generate_series(1, 6000) n WHERE id = ?`,
      [on.otherAccountId, first.id],
    );
    await s.db.knex.raw('ANALYZE transfers');
    const list = (status?: 'FAILED') =>
      readsOf(s.uow, ['transfers'], (bound) =>
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

  it("reads the customer's transfers of a common status behind a burst of newer ones of another", async () => {
    const customerId = await s.aCustomer('status behind a burst');
    const on = await s.uow.run((tx) => aSource(tx, customerId));
    const template = await s.uow.run((tx) => tx.transfers.insert(aTransferDraft(on)));
    // 9,000 completed a second apart, then 1,000 newer ones waiting (PENDING): a day's batch of payments.
    await s.db.knex.raw(
      `INSERT INTO transfers (customer_id, type, status, source_account_id, amount_minor, currency_code, destination_cbu_cvu,
         created_by_credential_id, creation_date, modification_date, version)
       SELECT customer_id, type, CASE WHEN n <= 9000 THEN 'COMPLETED' ELSE 'PENDING' END, source_account_id, amount_minor, currency_code,
         destination_cbu_cvu, created_by_credential_id, creation_date + (CASE WHEN n <= 9000 THEN -n ELSE n END) * interval '1 second', modification_date, 1
       FROM transfers CROSS JOIN generate_series(1, 10000) n WHERE id = ?`,
      [template.id],
    );
    await s.db.knex.raw('ANALYZE transfers');
    // On a table this small PostgreSQL may read the customer's rows whole and sort them; on a large one it reads an
    // index in order, and which index is what this bounds.
    const list = (page: PageRequest) =>
      readsOf(s.uow, ['transfers'], async (bound) => {
        await bound.executor().raw(`SELECT set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true)`);
        return new KnexTransferQueries(() => bound.executor()).list({ customerId, status: 'COMPLETED' }, page);
      });
    const createdOf = (transfers: readonly Transfer[]) => transfers.map((t) => t.toSnapshot().creationDate.getTime());

    const completed = await list({ page: 1, count: 1 });
    expect([completed.result.total, completed.result.items.map((t) => t.status)]).toEqual([9_000, ['COMPLETED']]);
    // Its own newest entry and row; read by creation, the 1,001 newer transfers came first.
    expect(completed.read).toBeLessThan(50);
    // Newest first from there, by the next page's key and by page number alike.
    const [after, second] = [await list({ page: 1, count: 2, after: completed.result.next }), await list({ page: 2, count: 1 })];
    const t0 = template.toSnapshot().creationDate.getTime();
    // The newest completed one was made a second before the template, the first of the seeded ones.
    expect([createdOf(completed.result.items), createdOf(after.result.items)]).toEqual([[t0 - 1_000], [t0 - 2_000, t0 - 3_000]]);
    expect(after.read).toBeLessThan(50);
    expect(createdOf(second.result.items)).toEqual(createdOf(after.result.items).slice(0, 1));
  });

  it('finds the due transfers still named by an alias alone without reading those that name their CBU/CVU', async () => {
    const customerId = await s.aCustomer('aliases');
    const on = await s.uow.run((tx) => aSource(tx, customerId));
    const named = await s.uow.run((tx) => tx.transfers.insert(aTransferDraft(on)));
    // 3,000 due transfers like it, each naming its CBU/CVU.
    await s.db.knex.raw(
      `INSERT INTO transfers (customer_id, type, status, source_account_id, amount_minor, currency_code, destination_cbu_cvu,
         created_by_credential_id, scheduled_date, creation_date, modification_date, version)
       SELECT customer_id, type, status, source_account_id, amount_minor, currency_code, destination_cbu_cvu,
         created_by_credential_id, scheduled_date, creation_date, modification_date, 1
       FROM transfers CROSS JOIN generate_series(1, 3000) n WHERE id = ?`,
      [named.id],
    );
    await s.db.knex.raw('ANALYZE transfers');

    const { result, read } = await readsOf(s.uow, ['transfers'], (bound) =>
      bound.run((tx) => tx.transfers.dueUnresolved({ today: '2026-03-01', limit: 100, customerId })),
    );

    expect(result).toEqual([]);
    expect(read).toBeLessThan(20);
  });
});

// A database of its own: the worker's queue is every customer's in due order, and the tests above fill it.
describe(`the transfer worker's pick among transfers awaiting their alias (${process.env.RCS_TEST_STORAGE})`, () => {
  const s = scaleDatabase();

  it('locks the transfers it can pay without reading the due ones still named by an alias alone', async () => {
    const customerId = await s.aCustomer('payable among aliases');
    const on = await s.uow.run((tx) => aSource(tx, customerId));
    const named = await s.uow.run((tx) => tx.transfers.insert(aTransferDraft(on)));
    // 3,000 due transfers naming an alias alone, unscheduled: before any payable one in the due order.
    await s.db.knex.raw(
      `INSERT INTO transfers (customer_id, type, status, source_account_id, amount_minor, currency_code, destination_alias,
         created_by_credential_id, creation_date, modification_date, version)
       SELECT customer_id, type, status, source_account_id, amount_minor, currency_code, 'proveedor.alias',
         created_by_credential_id, creation_date, modification_date, 1
       FROM transfers CROSS JOIN generate_series(1, 3000) n WHERE id = ?`,
      [named.id],
    );
    await s.db.knex.raw('ANALYZE transfers');

    const { result, read } = await readsOf(s.uow, ['transfers'], async (bound) => {
      await bound.executor().raw(`SELECT set_config('enable_bitmapscan', 'off', true)`);
      return bound.run((tx) => tx.transfers.lockDue({ today: '2026-03-01', limit: 100, customerId }));
    });

    expect(result.map((t) => t.id)).toEqual([named.id]);
    // Migration 029's index held the 3,000 too, read and passed over on every pass.
    expect(read).toBeLessThan(20);
  });
});
