import type { Knex } from 'knex';
import type { EventListFilter, ReceivableListFilter } from '@rcs/domain';
import { migrationSource } from '../src/migrations';
import { KnexEventQueries } from '../src/repositories/knex-event-feed';
import { KnexReceivableQueries } from '../src/repositories/knex-receivable-queries';
import { readsOf, scaleDatabase } from './support/reads';

const HOUR = 3_600_000;
/** The seeded rows' first creation: the rows follow 37 s apart, over about 50 hours. */
const T0 = Date.parse('2026-03-01T00:00:00Z');
const ROWS = 5_000;
const at = (ms: number) => new Date(T0 + ms);

/**
 * Date windows of the whole customer's receivables (due date, creation date) and events (occurrence) answer their
 * X-Total-Count from counts kept by due day and by hour (migration 042), plus the rows between a bound and the
 * nearest whole hour: exact wherever the window starts and ends, and reading an hour's rows at most at each edge
 * however many the window holds.
 */
describe(`date windows' totals (${process.env.RCS_TEST_STORAGE})`, () => {
  const s = scaleDatabase();
  let customerId: number;

  /** `ROWS` receivables 37 s apart from T0, due over 60 days (1 in 10 with none), in three statuses. */
  const seedReceivables = (knex: Knex, customer: number, account: number) =>
    knex.raw(
      `INSERT INTO receivables (customer_id, receivable_account_id, amount_minor, currency_code, receivable_type, status, due_date,
         receivable_date, creation_date, modification_date, version)
       SELECT ?, ?, 100, 'ARS', 'INVOICE', (ARRAY['PENDING', 'PAID', 'SETTLED'])[1 + n % 3],
         CASE WHEN n % 10 <> 0 THEN DATE '2026-03-01' + (n % 60) END, DATE '2026-03-01',
         ?::timestamptz + n * interval '37 seconds', now(), 1
       FROM generate_series(0, ? - 1) n`,
      [customer, account, at(0), ROWS],
    );

  /** `ROWS` events 37 s apart from T0 (and 0.25 ms into their second: bounds on whole milliseconds fall beside them), of three types. */
  const seedEvents = (knex: Knex, customer: number) =>
    knex.raw(
      `INSERT INTO outbox_events (id, customer_id, type, data, occurred_at)
       SELECT 'evt_w' || ? || '_' || n, ?, (ARRAY['receivable.created', 'receivable.paid', 'transfer.completed'])[1 + n % 3], '{}',
         ?::timestamptz + n * interval '37 seconds' + interval '250 microseconds'
       FROM generate_series(0, ? - 1) n`,
      [customer, customer, at(0), ROWS],
    );

  beforeAll(async () => {
    customerId = await s.aCustomer('windows');
    await seedReceivables(s.db.knex, customerId, await s.anAccount(customerId));
    await seedEvents(s.db.knex, customerId);
    // Another customer's rows in the same hours: none of them counts.
    const other = await s.aCustomer('windows elsewhere');
    await seedReceivables(s.db.knex, other, await s.anAccount(other));
    await seedEvents(s.db.knex, other);
    await s.db.knex.raw('ANALYZE receivables, outbox_events');
  });

  /** Windows of instants: whole hours, bounds inside an hour on either side or both, open on either side, within an hour, empty. */
  const instants: ReadonlyArray<{ fromDate?: Date; toDate?: Date }> = [
    { fromDate: at(3 * HOUR), toDate: at(20 * HOUR) },
    { fromDate: at(3 * HOUR + 1_234), toDate: at(20 * HOUR - 1) },
    { fromDate: at(3 * HOUR - 1), toDate: at(41 * HOUR + 17_000) },
    { fromDate: at(7 * HOUR + 600_000) },
    { toDate: at(30 * HOUR + 1) },
    { fromDate: at(10 * HOUR + 60_000), toDate: at(10 * HOUR + 1_200_000) },
    { fromDate: at(10 * HOUR + 60_000), toDate: at(11 * HOUR + 60_000) },
    { fromDate: at(12 * HOUR), toDate: at(12 * HOUR) },
    { fromDate: at(20 * HOUR), toDate: at(3 * HOUR) },
    { fromDate: at(-100 * HOUR), toDate: at(1_000 * HOUR) },
  ];
  const dueWindows: ReadonlyArray<{ fromDueDate?: string; toDueDate?: string }> = [
    { fromDueDate: '2026-03-05', toDueDate: '2026-03-05' },
    { fromDueDate: '2026-03-05', toDueDate: '2026-04-10' },
    { fromDueDate: '2026-04-01' },
    { toDueDate: '2026-03-10' },
    { fromDueDate: '2026-04-10', toDueDate: '2026-03-05' },
  ];

  const counted = async (table: string, where: (q: Knex.QueryBuilder) => void) => {
    const query = s.db.knex(table).where('customer_id', customerId);
    where(query);
    return Number((await query.count<{ n: string }[]>({ n: '*' }))[0].n);
  };
  const between = (column: string, w: { from?: unknown; to?: unknown }) => (q: Knex.QueryBuilder) => {
    if (w.from !== undefined) q.where(column, '>=', w.from as string);
    if (w.to !== undefined) q.where(column, '<=', w.to as string);
  };

  it('answers every window of the receivables, with or without a status, as count(*) of its rows', async () => {
    const receivables = new KnexReceivableQueries(() => s.db.knex);
    const filters: ReceivableListFilter[] = [...instants.map((w) => ({ customerId, ...w })), ...dueWindows.map((w) => ({ customerId, ...w }))].flatMap((f) => [
      f,
      { ...f, status: 'PAID' as const },
    ]);
    for (const filter of filters) {
      const { total } = await receivables.list(filter, { page: 1, count: 5 });
      const expected = await counted('receivables', (q) => {
        between('creation_date', { from: filter.fromDate, to: filter.toDate })(q);
        between('due_date', { from: filter.fromDueDate, to: filter.toDueDate })(q);
        if (filter.status) q.where('status', filter.status);
      });
      expect({ filter, total }).toEqual({ filter, total: expected });
    }
  });

  it('answers every window of the events, with or without a type, as count(*) of its rows', async () => {
    const events = new KnexEventQueries(() => s.db.knex);
    const filters: EventListFilter[] = instants.flatMap((w) => [
      { customerId, ...w },
      { customerId, ...w, type: 'receivable.paid' as const },
    ]);
    for (const filter of filters) {
      const { total } = await events.list(filter, { page: 1, count: 5 });
      const expected = await counted('outbox_events', (q) => {
        between('occurred_at', { from: filter.fromDate, to: filter.toDate })(q);
        if (filter.type) q.where('type', filter.type);
      });
      expect({ filter, total }).toEqual({ filter, total: expected });
    }
  });

  it("reads a window's edges and its page, not the thousands of rows it holds", async () => {
    // 17 hours and a bit: 1,654 rows of each table, of which the edges hold at most two hours' 195; counting the
    // window read every one (and the events' page reads 21 rows and their index entries beside).
    const window = { fromDate: at(3 * HOUR + 1_234), toDate: at(20 * HOUR - 1) };
    const receivables = await readsOf(s.uow, ['receivables'], (bound) =>
      new KnexReceivableQueries(() => bound.executor()).list({ customerId, ...window }, { page: 1, count: 20 }),
    );
    expect(receivables.result.total).toBeGreaterThan(1_500);
    expect(receivables.read).toBeLessThan(450);
    const due = await readsOf(s.uow, ['receivables'], (bound) =>
      new KnexReceivableQueries(() => bound.executor()).list({ customerId, fromDueDate: '2026-03-02', toDueDate: '2026-04-30' }, { page: 1, count: 20 }),
    );
    expect(due.result.total).toBeGreaterThan(4_000);
    expect(due.read).toBeLessThan(200);
    const events = await readsOf(s.uow, ['outbox_events'], (bound) =>
      new KnexEventQueries(() => bound.executor()).list({ customerId, ...window }, { page: 1, count: 20 }),
    );
    expect(events.result.total).toBeGreaterThan(1_500);
    expect(events.read).toBeLessThan(700);
  });

  it('counts by day and hour the rows already held when migration 042 runs', async () => {
    await s.db.knex.migrate.down({ migrationSource, name: '042-window-counts' });
    expect((await s.db.knex('list_counts').whereIn('scope', ['due_day', 'created_hour', 'hour']).count<{ n: string }[]>({ n: '*' }))[0].n).toBe('0');
    const later = await s.aCustomer('windows before 042');
    await seedReceivables(s.db.knex, later, await s.anAccount(later));
    await seedEvents(s.db.knex, later);
    await s.db.knex.migrate.up({ migrationSource, name: '042-window-counts' });
    // Rows 292 to 1,945 (37 s apart) are in the window; due on 2026-03-05 are rows 4 + 60k, none of them a tenth.
    const window = { fromDate: at(3 * HOUR + 1_234), toDate: at(20 * HOUR - 1) };
    const [receivables, events] = [new KnexReceivableQueries(() => s.db.knex), new KnexEventQueries(() => s.db.knex)];
    for (const id of [customerId, later]) {
      expect((await receivables.list({ customerId: id, ...window }, { page: 1, count: 1 })).total).toBe(1_654);
      expect((await receivables.list({ customerId: id, fromDueDate: '2026-03-05', toDueDate: '2026-03-05' }, { page: 1, count: 1 })).total).toBe(84);
      expect((await events.list({ customerId: id, ...window }, { page: 1, count: 1 })).total).toBe(1_654);
    }
  });
});
