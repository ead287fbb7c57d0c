import { adoptFeedServer } from '../src/event-feed-server';
import { KnexEventQueries } from '../src/repositories/knex-event-feed';
import { openTestDatabase, type TestDatabase } from '../testing';

/** README "Restoring the database": the feed's transaction ids belong to the server that gave them. */
describe(`the events feed on a database restored onto another server (${process.env.RCS_TEST_STORAGE})`, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db.close());

  it("sets the ids of the events held to 0 when started on another server, and refuses the old server's cursors", async () => {
    const [customer] = await db.knex('customers').insert({ name: 'Restored', creation_date: new Date() }).returning('id');
    const customerId = Number(customer.id);
    await db
      .knex('outbox_events')
      .insert([1, 2].map((n) => ({ id: `evt_restored${n}`, customer_id: customerId, type: 'receivable.created', data: '{}', occurred_at: new Date() })));
    const events = new KnexEventQueries(() => db.knex);
    const before = await events.feed({ customerId }, undefined, 1);
    // As a dump restored elsewhere finds it: the setting names the server the ids came from.
    await db.knex('settings').where({ key: 'events_feed_server' }).update({ value: '1' });
    await adoptFeedServer(db.knex);
    expect(await db.knex('outbox_events').where({ customer_id: customerId }).pluck('txid')).toEqual(['0', '0']);
    const server = (await db.knex('settings').where({ key: 'events_feed_server' }).first()).value;
    expect(before.next.startsWith(`${server}:`)).toBe(true);
    await expect(events.feed({ customerId }, `1:${before.next.split(':')[1]}`, 1)).rejects.toMatchObject({
      invalidParams: [{ name: 'cursor', reason: expect.stringMatching(/^was given by another database server/) }],
    });
    const again = await events.feed({ customerId }, undefined, 2);
    expect(again.items.map((event) => event.id)).toEqual(['evt_restored1', 'evt_restored2']);
  });
});
