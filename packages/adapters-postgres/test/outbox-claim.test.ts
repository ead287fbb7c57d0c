import { readsOf, scaleDatabase } from './support/reads';

const T0 = new Date('2026-03-01T10:00:00.000Z');

/**
 * The dispatcher claims the oldest pending events a batch at a time. Behind a backlog (a settlement cycle records an
 * event per receivable, a million at once) a claim must read its batch, not the backlog, or draining it costs the
 * square of its size.
 */
describe(`claiming pending events behind a backlog (${process.env.RCS_TEST_STORAGE})`, () => {
  const s = scaleDatabase();

  it('reads the batch it claims under any plan, the generic plan of its prepared statement included', async () => {
    const customerId = await s.aCustomer('backlog');
    const events = Array.from({ length: 20_000 }, (_, n) => ({ customerId, type: 'receivable.paid' as const, occurredAt: T0, data: { n } }));
    await s.uow.run((tx) => tx.outbox.record(events));
    await s.db.knex.raw('ANALYZE outbox_pending');
    for (let claim = 0; claim < 3; claim++) {
      const { result, read } = await readsOf(s.uow, ['outbox_pending'], async (bound) => {
        // PostgreSQL switches a prepared statement to its generic plan once that looks no dearer than the custom ones.
        await bound.executor().raw(`SELECT set_config('plan_cache_mode', 'force_generic_plan', true)`);
        return bound.run((tx) => tx.eventFeed.claimPending(500));
      });
      expect(result.map((event) => event.data.n)).toEqual(Array.from({ length: 500 }, (_, n) => claim * 500 + n));
      // Each found in order, locked, then found again by primary key to delete it, and the entries earlier claims
      // left dead passed over; matched by a hash of the batch, the deletion read the whole backlog (20,000 and more).
      expect(read).toBeLessThan(8 * 500);
    }
  });
});
