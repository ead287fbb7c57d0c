import { KnexEventQueries } from '../src/repositories/knex-event-feed';
import { readsOf, scaleDatabase } from './support/reads';

const T0 = Date.parse('2026-03-01T00:00:00Z');

/**
 * A page of one type of events reads that type's events alone, however the others are spread: a common type's
 * newest events sit behind a burst of another type (an expiration run or a settlement cycle records one per
 * receivable), and PostgreSQL, reading the events by time and filtering the type, read the whole burst first.
 */
describe(`a page of events of one type (${process.env.RCS_TEST_STORAGE})`, () => {
  const s = scaleDatabase();

  it('reads its own rows behind a burst of another type, on page 1 and through its cursor, newest first', async () => {
    const customerId = await s.aCustomer('event types');
    // 9 in 10 receivable.created, one a minute, then 5,000 receivable.expired a millisecond apart after them.
    await s.db.knex.raw(
      `INSERT INTO outbox_events (id, customer_id, type, data, occurred_at)
       SELECT 'evt_t' || ? || '_' || n, ?, CASE WHEN n % 10 = 0 THEN 'receivable.paid' ELSE 'receivable.created' END, '{}',
         ?::timestamptz + n * interval '1 minute'
       FROM generate_series(0, 19999) n`,
      [customerId, customerId, new Date(T0)],
    );
    await s.db.knex.raw(
      `INSERT INTO outbox_events (id, customer_id, type, data, occurred_at)
       SELECT 'evt_b' || ? || '_' || n, ?, 'receivable.expired', '{}', ?::timestamptz + n * interval '1 millisecond'
       FROM generate_series(0, 4999) n`,
      [customerId, customerId, new Date(T0 + 20_000 * 60_000)],
    );
    await s.db.knex.raw('ANALYZE outbox_events');
    const list = (page: Parameters<KnexEventQueries['list']>[1]) =>
      readsOf(s.uow, ['outbox_events'], (bound) => new KnexEventQueries(() => bound.executor()).list({ customerId, type: 'receivable.created' }, page));
    const first = await list({ page: 1, count: 1 });
    expect(first.result.items.map((event) => event.id)).toEqual([`evt_t${customerId}_19999`]);
    expect(first.result.total).toBe(18_000);
    // A few index entries and rows; read by time, the burst's 5,000 came first.
    expect(first.read).toBeLessThan(50);
    const next = await list({ page: 1, count: 2, after: first.result.next });
    expect(next.result.items.map((event) => event.id)).toEqual([`evt_t${customerId}_19998`, `evt_t${customerId}_19997`]);
    expect(next.read).toBeLessThan(50);
    const third = await list({ page: 3, count: 1 });
    expect(third.result.items.map((event) => event.id)).toEqual([`evt_t${customerId}_19997`]);
  });
});
