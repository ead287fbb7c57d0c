import { KnexEventQueries } from '../src/repositories/knex-event-feed';
import { readsOf, scaleDatabase } from './support/reads';

const T0 = Date.parse('2026-03-01T00:00:00Z');

/** A page of the events' feed reads the rows it returns, from its start, its cursor or fromDate, however many are held. */
describe(`a page of the events' feed (${process.env.RCS_TEST_STORAGE})`, () => {
  const s = scaleDatabase();

  it("reads a few index entries and rows on its first page, after a cursor and from fromDate, among 40,000 of two customers'", async () => {
    const customerId = await s.aCustomer('feed');
    const other = await s.aCustomer('feed, other');
    // Four transactions of each customer, interleaved: events one a minute.
    for (let chunk = 0; chunk < 4; chunk++)
      for (const customer of [customerId, other])
        await s.db.knex.raw(
          `INSERT INTO outbox_events (id, customer_id, type, data, occurred_at)
           SELECT 'evt_f' || ? || '_' || n, ?, 'receivable.created', '{}', ?::timestamptz + n * interval '1 minute'
           FROM generate_series(? * 5000, ? * 5000 + 4999) n`,
          [customer, customer, new Date(T0), chunk, chunk],
        );
    await s.db.knex.raw('ANALYZE outbox_events');
    // Read again while another test's transaction, anywhere on the server, holds the feed's horizon back.
    const feed = async (after: string | undefined, fromDate?: Date) => {
      for (let tries = 0; ; tries++) {
        const page = await readsOf(s.uow, ['outbox_events'], (bound) =>
          new KnexEventQueries(() => bound.executor()).feed({ customerId, ...(fromDate ? { fromDate } : {}) }, after, 2),
        );
        if (page.result.items.length > 0 || tries === 400) return page;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    const first = await feed(undefined);
    expect(first.result.items.map((event) => event.id)).toEqual([`evt_f${customerId}_0`, `evt_f${customerId}_1`]);
    expect([first.result.total, first.read]).toEqual([20_000, expect.any(Number)]);
    expect(first.read).toBeLessThan(50);
    const next = await feed(first.result.next);
    expect(next.result.items.map((event) => event.id)).toEqual([`evt_f${customerId}_2`, `evt_f${customerId}_3`]);
    expect(next.read).toBeLessThan(50);
    // In the third transaction: neither the 12,000 before it nor the rest of its transaction read.
    const middle = await feed(undefined, new Date(T0 + 12_345 * 60_000));
    expect(middle.result.items.map((event) => event.id)).toEqual([`evt_f${customerId}_12345`, `evt_f${customerId}_12346`]);
    expect(middle.result.total).toBe(20_000);
    expect(middle.read).toBeLessThan(50);
  });
});
