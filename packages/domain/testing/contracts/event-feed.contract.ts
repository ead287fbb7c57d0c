import { DispatchEvents, PurgeEvents, type DomainEvent, type EventType, type StoredEvent } from '../../src';
import { FixedClock } from '../fakes';
import { useHarness, type HarnessFactory, type TestDefinition } from './harness';

const T0 = new Date('2026-04-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const DAY_MS = 86_400_000;

const event = (customerId: number, n: number, type: EventType = 'receivable.created', occurredAt = at(n)): DomainEvent => ({
  customerId,
  type,
  occurredAt,
  data: { receivable: { id: n } },
});

/** The events API's read of what was recorded, and the outbox feed that the webhook dispatcher drains. */
export function eventFeedContract(factory: HarnessFactory, itRacing: TestDefinition): void {
  describe('event feed and event queries', () => {
    const ctx = useHarness(factory);
    const record = (events: DomainEvent[]) => ctx.h.uow.run((tx) => tx.outbox.record(events));
    const claim = (limit = 1_000) => ctx.h.uow.run((tx) => tx.eventFeed.claimPending(limit));
    /** Every pending event of every customer handed to a handler that keeps them, batch by batch. */
    const dispatchAll = async (batchSize = 1_000) => {
      const batches: Array<readonly StoredEvent[]> = [];
      await new DispatchEvents(ctx.h.uow).execute({ batchSize, handler: async (events) => void batches.push(events) });
      return batches;
    };
    const ofCustomer = (customerId: number, events: readonly StoredEvent[]) => events.filter((e) => e.customerId === customerId);
    const all = (customerId: number) => ctx.h.eventQueries.list({ customerId }, { page: 1, count: 200 });

    beforeEach(() => dispatchAll());

    it('hands each committed event to the dispatcher once, oldest first, with its id and data as stored', async () => {
      const customerId = await ctx.newCustomer();
      await record([event(customerId, 1), event(customerId, 2, 'receivable.paid')]);
      await record([event(customerId, 3, 'movement.created')]);
      const pending = async (eventId: string) => ctx.h.uow.run((tx) => tx.eventFeed.isPending(eventId));
      const [newest] = (await all(customerId)).items;
      expect(await pending(newest.id)).toBe(true);
      const claimed = ofCustomer(customerId, await claim());
      expect(await pending(newest.id)).toBe(false);
      expect(claimed.map((e) => e.type)).toEqual(['receivable.created', 'receivable.paid', 'movement.created']);
      const stored = [...(await all(customerId)).items].reverse();
      expect(claimed).toEqual(stored);
      expect(claimed[0]).toEqual({ ...event(customerId, 1), id: expect.stringMatching(/^evt_/) });
      expect(await claim()).toEqual([]);
    });

    it('hands out in batches of the size asked, and the dispatch use case drains them all', async () => {
      const customerId = await ctx.newCustomer();
      await record(Array.from({ length: 7 }, (_, i) => event(customerId, i)));
      const batches = await dispatchAll(3);
      expect(batches.map((b) => b.length)).toEqual([3, 3, 1]);
      expect(batches.flat().map((e) => e.data)).toEqual(Array.from({ length: 7 }, (_, i) => ({ receivable: { id: i } })));
    });

    it('gives the events of a batch whose handler fails to the next dispatch, with what the handler wrote undone', async () => {
      const customerId = await ctx.newCustomer();
      await record([event(customerId, 1), event(customerId, 2)]);
      const failing = new DispatchEvents(ctx.h.uow).execute({
        handler: async (events, tx) => {
          await tx.outbox.record([event(customerId, 99, 'webhook.test')]);
          throw new Error(`handler failed on ${events.length}`);
        },
      });
      await expect(failing).rejects.toThrow('handler failed on 2');
      expect(ofCustomer(customerId, (await dispatchAll()).flat()).map((e) => e.data)).toEqual([{ receivable: { id: 1 } }, { receivable: { id: 2 } }]);
      expect((await all(customerId)).total).toBe(2);
    });

    it('never hands out an event whose transaction rolled back', async () => {
      const customerId = await ctx.newCustomer();
      await expect(
        ctx.h.uow.run(async (tx) => {
          await tx.outbox.record([event(customerId, 1)]);
          throw new Error('change refused');
        }),
      ).rejects.toThrow('change refused');
      expect(ofCustomer(customerId, await claim())).toEqual([]);
    });

    itRacing('never hands the same event to two dispatches running at once', async () => {
      const customerId = await ctx.newCustomer();
      await record(Array.from({ length: 40 }, (_, i) => event(customerId, i)));
      const runs = await Promise.all(
        Array.from({ length: 4 }, () =>
          ctx.h.uow.run(async (tx) => {
            const events = await tx.eventFeed.claimPending(15);
            // Still holding its claim while the others take theirs.
            await new Promise((resolve) => setTimeout(resolve, 50));
            return events;
          }),
        ),
      );
      const ids = runs.flat().map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(40);
    });

    it("reads an event by id and lists a customer's events newest first, by type and occurredAt window, a page at a time", async () => {
      const customerId = await ctx.newCustomer();
      const other = await ctx.newCustomer();
      await record([
        event(customerId, 1),
        event(customerId, 2, 'receivable.paid'),
        event(other, 3),
        event(customerId, 4),
        event(customerId, 5, 'receivable.paid'),
      ]);
      const list = await all(customerId);
      expect(list.total).toBe(4);
      expect(list.items.map((e) => e.occurredAt)).toEqual([at(5), at(4), at(2), at(1)]);
      expect(await ctx.h.eventQueries.get(list.items[1].id)).toEqual(list.items[1]);
      expect(await ctx.h.eventQueries.get('evt_none')).toBeUndefined();
      const paid = await ctx.h.eventQueries.list({ customerId, type: 'receivable.paid' }, { page: 1, count: 1 });
      expect({ total: paid.total, at: paid.items.map((e) => e.occurredAt) }).toEqual({ total: 2, at: [at(5)] });
      const second = await ctx.h.eventQueries.list({ customerId, type: 'receivable.paid' }, { page: 2, count: 1 });
      expect(second.items.map((e) => e.occurredAt)).toEqual([at(2)]);
      const window = await ctx.h.eventQueries.list({ customerId, fromDate: at(2), toDate: at(4) }, { page: 1, count: 10 });
      expect(window.items.map((e) => e.occurredAt)).toEqual([at(4), at(2)]);
      const past = await ctx.h.eventQueries.list({ customerId }, { page: 3, count: 2 });
      expect(past).toEqual({ items: [], total: 4 });
    });

    /**
     * A feed page, read again until it holds `items` events: the feed holds back events of transactions newer
     * than the oldest one still running anywhere on the server, which another test's may be for a moment.
     */
    const feedOf = async (customerId: number, after: string | undefined, items: number, fromDate?: Date) => {
      for (let tries = 0; ; tries++) {
        const page = await ctx.h.eventQueries.feed({ customerId, ...(fromDate ? { fromDate } : {}) }, after, 2);
        if (page.items.length >= items || tries === 200) return page;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    const ids = (page: { items: readonly StoredEvent[] }) => page.items.map((e) => (e.data as { receivable: { id: number } }).receivable.id);

    it("follows a customer's events oldest first, each page from where the last one ended, from fromDate's first event", async () => {
      const customerId = await ctx.newCustomer();
      const other = await ctx.newCustomer();
      await record([event(customerId, 1), event(other, 2), event(customerId, 3)]);
      await record([event(customerId, 4, 'receivable.paid')]);
      const first = await feedOf(customerId, undefined, 2);
      expect([ids(first), first.total]).toEqual([[1, 3], 3]);
      const second = await feedOf(customerId, first.next, 1);
      expect(ids(second)).toEqual([4]);
      const idle = await ctx.h.eventQueries.feed({ customerId }, second.next, 2);
      expect([idle.items, idle.next]).toEqual([[], second.next]);
      await record([event(customerId, 5)]);
      expect(ids(await feedOf(customerId, idle.next, 1))).toEqual([5]);
      const fromThird = await feedOf(customerId, undefined, 2, at(3));
      expect([ids(fromThird), fromThird.total]).toEqual([[3, 4], 4]);
      const none = await ctx.h.eventQueries.feed({ customerId, fromDate: at(60) }, undefined, 2);
      expect(none.items).toEqual([]);
      // Committed after the feed's start, though it occurred before fromDate (a longer transaction's): given.
      await record([event(customerId, 61), event(customerId, 62, 'receivable.created', at(0))]);
      expect(ids(await feedOf(customerId, none.next, 2))).toEqual([61, 62]);
    });

    it('starts from fromDate at the first event that occurred then by time, leaving out any recorded before it', async () => {
      const customerId = await ctx.newCustomer();
      // Recorded first though it occurred later: before the start, as the documented advice to start early says.
      await record([event(customerId, 10)]);
      await record([event(customerId, 5)]);
      await record([event(customerId, 7)]);
      expect(ids(await feedOf(customerId, undefined, 2, at(5)))).toEqual([5, 7]);
    });

    /**
     * `read`'s answer while one writer holds its transaction open, having recorded `held`, and a second, later, records
     * `later`: committed at once by a server, queued behind the first by a store whose transactions run one at a time.
     */
    const whileOneIsOpen = async <T>(held: DomainEvent, later: DomainEvent, read: () => Promise<T>): Promise<T> => {
      let release!: () => void;
      const open = new Promise<void>((resolve) => (release = resolve));
      let recorded!: () => void;
      const written = new Promise<void>((resolve) => (recorded = resolve));
      const first = ctx.h.uow.run(async (tx) => {
        await tx.outbox.record([held]);
        // A read after it: the insert, which may go out without a round trip of its own, has run.
        await tx.eventFeed.isPending('evt_none');
        recorded();
        await open;
      });
      await written;
      const second = record([later]);
      await Promise.race([second, new Promise((resolve) => setTimeout(resolve, 500))]);
      const answer = await read();
      release();
      await Promise.all([first, second]);
      return answer;
    };

    itRacing('starts from fromDate no later than a transaction still running, so an event it records after fromDate is given', async () => {
      const customerId = await ctx.newCustomer();
      // Its first event by time is the later one's, committed; the open one's comes before it in the feed.
      const start = await whileOneIsOpen(event(customerId, 10), event(customerId, 20), () =>
        ctx.h.eventQueries.feed({ customerId, fromDate: at(5) }, undefined, 2),
      );
      const seen = [...ids(start)];
      seen.push(...ids(await feedOf(customerId, start.next, 2 - seen.length)));
      expect(seen.sort((a, b) => a - b)).toEqual([10, 20]);
    });

    itRacing('never gives an event after the feed passed it: one whose transaction commits after a later one comes after it', async () => {
      const customerId = await ctx.newCustomer();
      const start = (await ctx.h.eventQueries.feed({ customerId }, undefined, 2)).next;
      const early = await whileOneIsOpen(event(customerId, 1), event(customerId, 2), () => ctx.h.eventQueries.feed({ customerId }, start, 2));
      const late = await feedOf(customerId, early.next, 2);
      expect([ids(early), ids(late)]).toEqual([[], [1, 2]]);
    });

    it('orders events that occurred at the same instant by when they were recorded, newest first', async () => {
      const customerId = await ctx.newCustomer();
      await record([event(customerId, 1, 'receivable.created', T0), event(customerId, 2, 'receivable.created', T0)]);
      await record([event(customerId, 3, 'receivable.created', T0)]);
      expect((await all(customerId)).items.map((e) => e.data)).toEqual([3, 2, 1].map((id) => ({ receivable: { id } })));
    });

    it('purges dispatched events past the retention window in batches, and keeps pending and recent ones', async () => {
      const customerId = await ctx.newCustomer();
      const now = new Date(T0.getTime() + 400 * DAY_MS);
      const old = (n: number) => event(customerId, n, 'receivable.created', new Date(now.getTime() - 31 * DAY_MS + n));
      await record([1, 2, 3, 4, 5].map(old));
      await dispatchAll();
      // Old but never dispatched: purging it would lose it for every webhook.
      await record([old(6)]);
      await record([event(customerId, 7, 'receivable.paid', new Date(now.getTime() - 29 * DAY_MS))]);
      await record([event(customerId, 8, 'receivable.paid', now)]);

      const purged = await new PurgeEvents(ctx.h.uow, new FixedClock(now)).execute({ retentionDays: 30, batchSize: 2 });

      // Earlier tests' events occurred long before `now`, and were dispatched: they go too.
      expect(purged.events).toBeGreaterThanOrEqual(6);
      expect((await all(customerId)).items.map((e) => e.data)).toEqual([8, 7, 6].map((id) => ({ receivable: { id } })));
      expect(ofCustomer(customerId, await claim()).map((e) => e.data)).toEqual([6, 7, 8].map((id) => ({ receivable: { id } })));
      // A redelivery holds what is kept, and learns what is purged is gone.
      const [kept] = (await all(customerId)).items;
      const heldNow = (eventId: string) => ctx.h.uow.run((tx) => tx.eventFeed.hold(eventId));
      expect([await heldNow(kept.id), await heldNow('evt_never_recorded')]).toEqual([true, false]);
    });
  });
}
