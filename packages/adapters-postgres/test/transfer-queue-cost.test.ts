import { DEFAULT_CUSTOMER_SETTINGS } from '@rcs/domain';
import { aSource, aTransferDraft } from '@rcs/domain/testing';
import { KnexUnitOfWork } from '../src/knex-unit-of-work';
import { readsOf } from './support/reads';
import { openTestDatabase, type TestDatabase } from '../testing';

/** The transfer worker's pass reads the transfers due today, not those scheduled for later days. */
describe(`the transfer queue's cost (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  let uow: KnexUnitOfWork;

  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: 2 });
    uow = new KnexUnitOfWork(db.knex);
  });
  afterAll(async () => db.close());

  it('reads what is due up to today, however many transfers are scheduled for later days', async () => {
    const { customer } = await uow.run((tx) => tx.customers.insertIfAbsent({ ...DEFAULT_CUSTOMER_SETTINGS, name: 'scheduling', creationDate: new Date() }));
    const on = await uow.run((tx) => aSource(tx, customer.id));
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
      return bound.run((tx) => tx.transfers.lockDue({ today: '2026-03-01', limit: 100 }));
    });

    expect(result.map((t) => t.id)).toEqual([now.id, dated.id]);
    // The two due and the first entry past today; passing over the later days read 3,000 more.
    expect(read).toBeLessThan(20);
  });
});
