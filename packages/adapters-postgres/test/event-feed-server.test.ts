import { adoptFeedServer } from '../src/event-feed-server';
import { KnexEventQueries } from '../src/repositories/knex-event-feed';
import { openTestDatabase, type TestDatabase } from '../testing';

/** README "Restoring the database": the feed's transaction ids count on the server that gave them. */
describe(`the events feed on a database started on another server (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db.close());

  const servers = async () => (await db.knex('settings').where({ key: 'events_feed_server' }).first()).value.split(' ');
  const refusal = { invalidParams: [{ name: 'cursor', reason: expect.stringMatching(/^was given by another database server/) }] };

  it("keeps the ids and the old server's cursors when this server's count is past them (pg_upgrade), and resets both when it is behind (a restore)", async () => {
    const [customer] = await db.knex('customers').insert({ name: 'Restored', creation_date: new Date() }).returning('id');
    const customerId = Number(customer.id);
    await db
      .knex('outbox_events')
      .insert([1, 2].map((n) => ({ id: `evt_restored${n}`, customer_id: customerId, type: 'receivable.created', data: '{}', occurred_at: new Date() })));
    const queries = new KnexEventQueries(() => db.knex);
    // Read again while another test's transaction, anywhere on the server, holds the feed's horizon back.
    const events = {
      feed: async (...args: Parameters<KnexEventQueries['feed']>) => {
        for (let tries = 0; ; tries++) {
          const page = await queries.feed(...args);
          if (page.items.length > 0 || tries === 400) return page;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      },
    };
    const [server] = await servers();
    const first = await events.feed({ customerId }, undefined, 1);
    expect(first.next.startsWith(`${server}:`)).toBe(true);
    const ids = await db.knex('outbox_events').where({ customer_id: customerId }).orderBy('seq').pluck('txid');

    // Upgraded in place: the ids came from server 1, and this server's count is past them.
    await db.knex('settings').where({ key: 'events_feed_server' }).update({ value: '1' });
    await adoptFeedServer(db.knex);
    expect([await servers(), await db.knex('outbox_events').where({ customer_id: customerId }).orderBy('seq').pluck('txid')]).toEqual([[server, '1'], ids]);
    const onOld = await events.feed({ customerId }, `1:${first.next.split(':')[1]}`, 1);
    expect(onOld.items.map((event) => event.id)).toEqual(['evt_restored2']);

    // Restored onto a server whose count is behind the ids held: set to 0, and only this server's cursors taken.
    await db.knex('outbox_events').where({ id: 'evt_restored2' }).update({ txid: '18446744073709551000' });
    await db.knex('settings').where({ key: 'events_feed_server' }).update({ value: '2' });
    await adoptFeedServer(db.knex);
    expect([await servers(), await db.knex('outbox_events').where({ customer_id: customerId }).pluck('txid')]).toEqual([[server], ['0', '0']]);
    await expect(events.feed({ customerId }, `2:${first.next.split(':')[1]}`, 1)).rejects.toMatchObject(refusal);
    await expect(events.feed({ customerId }, `${server}:18446744073709551000.1`, 1)).rejects.toMatchObject(refusal);
    const again = await events.feed({ customerId }, undefined, 2);
    expect(again.items.map((event) => event.id)).toEqual(['evt_restored1', 'evt_restored2']);
  });
});
