import {
  DispatchEvents,
  DispatchWebhookEvents,
  EXPIRED_REASON,
  PurgeEvents,
  Webhook,
  type ClaimedDelivery,
  type DeliveryClaim,
  type DeliveryOutcome,
  type DeliveryResult,
  type ScheduledDelivery,
} from '../../src';
import { FixedClock } from '../fakes';
import { useHarness, type HarnessFactory, type TestDefinition } from './harness';

/** Before every other suite's dates, so a claim here never takes their attempts. */
const T0 = new Date('2024-01-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const FAILED = { status: 'FAILED', responseCode: 500, durationMs: 3, failureReason: 'answered 500' } as const;

/** What the dispatcher and the delivery worker ask of storage: scheduling, claiming with leases, holding, expiring. */
export function webhookDeliveryRepositoryContract(factory: HarnessFactory, itRacing: TestDefinition): void {
  describe('webhook delivery repository', () => {
    const ctx = useHarness(factory);
    let events = 0;
    const webhookOf = async (customerId?: number) => {
      const owner = customerId ?? (await ctx.newCustomer());
      const subscription = { url: 'https://erp.example/hooks', events: ['receivable.paid' as const] };
      return ctx.h.uow.run((tx) => tx.webhooks.insert(Webhook.register(owner, subscription, { sealed: 's', tail: '0000' }, at(0))));
    };
    const attempt = (webhook: Webhook, overrides: Partial<ScheduledDelivery> = {}): ScheduledDelivery => {
      const eventId = `evt_c${process.pid}x${++events}`;
      return {
        webhookId: webhook.id,
        customerId: webhook.customerId,
        eventId,
        eventType: 'receivable.paid',
        attempt: 1,
        payload: `{"id":"${eventId}"}`,
        createdAt: at(0),
        nextAttemptAt: at(0),
        ...overrides,
      };
    };
    const schedule = (deliveries: ScheduledDelivery[]) => ctx.h.uow.run((tx) => tx.webhookDeliveries.schedule(deliveries));
    const claim = (webhooks: Webhook[], overrides: Partial<DeliveryClaim> = {}) =>
      ctx.h.uow
        .run((tx) => tx.webhookDeliveries.claimDue({ now: at(1), claimedUntil: at(2), limit: 100, perWebhook: 100, skipWebhooks: [], ...overrides }))
        .then((claimed) => claimed.filter((d) => webhooks.some((w) => w.id === d.webhookId)));
    const statuses = async (webhook: Webhook) => {
      const history = await ctx.h.webhookQueries.deliveries({ webhookId: webhook.id, customerId: webhook.customerId }, { page: 1, count: 100 });
      return history.items.map((d) => [d.eventId, d.status, d.failureReason]);
    };

    it('schedules an attempt once: the same webhook, event and attempt again is left as it is', async () => {
      const webhook = await webhookOf();
      const first = attempt(webhook);
      await schedule([first, attempt(webhook)]);
      await schedule([
        { ...first, payload: '{"changed":true}' },
        { ...first, attempt: 3 },
      ]);
      const lastAttempt = (eventId: string) => ctx.h.uow.run((tx) => tx.webhookDeliveries.lastAttempt(webhook.id, eventId));
      expect([await lastAttempt(first.eventId), await lastAttempt('evt_none')]).toEqual([3, 0]);
      const claimed = (await claim([webhook])).filter((d) => d.attempt === 1);
      expect(claimed).toHaveLength(2);
      const { nextAttemptAt: _due, ...stored } = first;
      expect(claimed.find((d) => d.eventId === first.eventId)).toEqual({ ...stored, id: expect.any(Number) });
    });

    it('claims due attempts only, at most perWebhook of a webhook, none of a skipped one, and not again while leased', async () => {
      const [a, b, skipped] = [await webhookOf(), await webhookOf(), await webhookOf()];
      await schedule([attempt(a), attempt(a), attempt(a), attempt(b), attempt(b, { nextAttemptAt: at(5) }), attempt(skipped)]);
      const first = await claim([a, b, skipped], { perWebhook: 2, skipWebhooks: [skipped.id] });
      expect(first.map((d) => d.webhookId).sort()).toEqual([a.id, a.id, b.id].sort());
      // The third of a is due; the leased ones are not, until their lease lapses (a worker died mid-call).
      const second = await claim([a, b]);
      expect(second.map((d) => d.webhookId)).toEqual([a.id]);
      const lapsed = await claim([a, b], { now: at(3), claimedUntil: at(4) });
      expect(lapsed.map((d) => d.id).sort()).toEqual([...first, ...second].map((d) => d.id).sort());
    });

    it('claims at most its own share of a webhook given one, perWebhook of the others', async () => {
      const [slow, fast] = [await webhookOf(), await webhookOf()];
      await schedule([...Array.from({ length: 4 }, () => attempt(slow)), ...Array.from({ length: 4 }, () => attempt(fast))]);
      const claimed = await claim([slow, fast], { perWebhook: 3, shares: [{ webhookId: slow.id, perWebhook: 1 }] });
      expect([slow, fast].map((w) => claimed.filter((d) => d.webhookId === w.id).length)).toEqual([1, 3]);
    });

    it('takes none of a webhook whose share is 0 or less, and such webhooks do not hide the others', async () => {
      // More of them, due first, than a claim of one reads webhooks: left in, they would use up its reading.
      const nothing = await Promise.all(Array.from({ length: 6 }, () => webhookOf()));
      const other = await webhookOf();
      await schedule([...nothing.map((webhook) => attempt(webhook, { nextAttemptAt: at(-90) })), attempt(other, { nextAttemptAt: at(-85) })]);
      const shares = nothing.map((webhook, n) => ({ webhookId: webhook.id, perWebhook: -(n % 2) }));
      const claimed = await claim([...nothing, other], { limit: 1, shares });
      expect(claimed.map((d) => d.webhookId)).toEqual([other.id]);
      await claim(nothing, { claimedUntil: at(100_000) });
    });

    it('claims attempts due at the same time in the order they were made, whichever webhook they are for', async () => {
      const [first, second] = [await webhookOf(), await webhookOf()];
      // The later webhook's attempt was made first: an event's attempts share their due time.
      await schedule([attempt(second, { nextAttemptAt: at(-70) })]);
      await schedule([attempt(first, { nextAttemptAt: at(-70) })]);
      const [claimed] = await claim([first, second], { limit: 1 });
      expect(claimed.webhookId).toBe(second.id);
      // Leased for good, so the claims of the tests after this one are not given the other one.
      await claim([first], { claimedUntil: at(100_000) });
    });

    it("claims a webhook's due attempt behind another's older backlog, passing over a skipped webhook's", async () => {
      const [backlog, behind, skipped] = [await webhookOf(), await webhookOf(), await webhookOf()];
      await schedule([
        ...Array.from({ length: 50 }, () => attempt(skipped, { nextAttemptAt: at(-60) })),
        ...Array.from({ length: 50 }, () => attempt(backlog, { nextAttemptAt: at(-50) })),
        attempt(behind, { nextAttemptAt: at(-40) }),
      ]);
      const claimed = await claim([backlog, behind, skipped], { limit: 10, perWebhook: 5, skipWebhooks: [skipped.id] });
      const of = (webhook: Webhook) => claimed.filter((d) => d.webhookId === webhook.id).length;
      expect([of(backlog), of(behind), of(skipped)]).toEqual([5, 1, 0]);
      // Leased for good, so the claims of the tests after this one are not given the rest of these backlogs.
      await claim([backlog, skipped], { limit: 1_000, perWebhook: 1_000, claimedUntil: at(100_000) });
    });

    it('gives back leased attempts due again at once, leaving ended, held and re-leased ones as they are', async () => {
      const [webhook, other] = [await webhookOf(), await webhookOf()];
      await schedule([attempt(webhook), attempt(webhook), attempt(webhook), attempt(other)]);
      const [given, ended, held] = await claim([webhook]);
      // The lease of `other`'s attempt lapsed and another worker took it: that worker's lease, not to be cleared.
      await claim([other]);
      const [retaken] = await claim([other], { now: at(3), claimedUntil: at(4), skipWebhooks: [webhook.id] });
      // A test send or a redelivery: leased when made, with no due time of its own.
      const { nextAttemptAt: _due, ...unscheduled } = attempt(webhook);
      const inserted = await ctx.h.uow.run((tx) => tx.webhookDeliveries.insert({ ...unscheduled, claimedUntil: at(2) }));
      await ctx.h.uow.run(async (tx) => {
        await tx.webhookDeliveries.complete([{ id: ended.id, result: { status: 'SUCCESS', responseCode: 200, durationMs: 1, failureReason: null } }]);
        await tx.webhookDeliveries.hold([held.id]);
        await tx.webhookDeliveries.unclaim(
          [given, ended, held, retaken, inserted].map(({ id }) => ({ id, claimedUntil: at(2) })),
          at(1),
        );
      });
      const ids = (claimed: ClaimedDelivery[]) => claimed.map((d) => d.id).sort((a, b) => a - b);
      // Still inside the leases they were claimed with: the given-back attempts alone are due, the test send too.
      expect(ids(await claim([webhook, other]))).toEqual([given.id, inserted.id]);
      // Long after every lease lapsed, the ended and the held attempts are still not due.
      expect(ids(await claim([webhook, other], { now: at(30) }))).toEqual([given.id, retaken.id, inserted.id]);
      expect(await statuses(webhook)).toContainEqual([ended.eventId, 'SUCCESS', null]);
    });

    itRacing('never hands one attempt to two workers claiming at once', async () => {
      const webhook = await webhookOf();
      await schedule(Array.from({ length: 40 }, () => attempt(webhook)));
      const runs = await Promise.all(
        Array.from({ length: 4 }, () =>
          ctx.h.uow.run(async (tx) => {
            const claimed = await tx.webhookDeliveries.claimDue({ now: at(1), claimedUntil: at(2), limit: 15, perWebhook: 100, skipWebhooks: [] });
            await new Promise((resolve) => setTimeout(resolve, 50));
            return claimed.filter((d) => d.webhookId === webhook.id);
          }),
        ),
      );
      const ids = runs.flat().map((d) => d.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(40);
    });

    itRacing('hands a worker claiming at the same time as another the next webhooks’ attempts, not nothing', async () => {
      const webhooks = await Promise.all(Array.from({ length: 30 }, () => webhookOf()));
      await schedule(webhooks.map((webhook) => attempt(webhook, { nextAttemptAt: at(-80) })));
      // Each holds its ten a while: the other claims while they are locked, and skips them.
      const runs = await Promise.all(
        [0, 1].map(() =>
          ctx.h.uow.run(async (tx) => {
            const claimed = await tx.webhookDeliveries.claimDue({ now: at(1), claimedUntil: at(100_000), limit: 10, perWebhook: 1, skipWebhooks: [] });
            await new Promise((resolve) => setTimeout(resolve, 50));
            return claimed.filter((d) => webhooks.some((w) => w.id === d.webhookId)).map((d) => d.id);
          }),
        ),
      );
      expect([runs[0].length, runs[1].length, new Set(runs.flat()).size]).toEqual([10, 10, 20]);
      await claim(webhooks, { limit: 1_000, claimedUntil: at(100_000) });
    });

    it('holds attempts until a release makes them due, expiring those held since before the window', async () => {
      const webhook = await webhookOf();
      const [old, recent, leased] = [
        attempt(webhook, { createdAt: at(-100), nextAttemptAt: null }),
        attempt(webhook, { nextAttemptAt: null }),
        attempt(webhook),
      ];
      await schedule([old, recent, leased]);
      const [claimed] = await claim([webhook]);
      expect(claimed.eventId).toBe(leased.eventId);
      await ctx.h.uow.run((tx) => tx.webhookDeliveries.hold([claimed.id]));
      expect(await claim([webhook], { now: at(30) })).toEqual([]);
      const released = await ctx.h.uow.run((tx) => tx.webhookDeliveries.release(webhook.id, at(1), at(-10)));
      expect(released).toEqual({ released: 2, expired: 1 });
      expect((await claim([webhook])).map((d) => d.eventId).sort()).toEqual([recent.eventId, leased.eventId].sort());
      expect(await statuses(webhook)).toContainEqual([old.eventId, 'FAILED', EXPIRED_REASON]);
    });

    it('expires held attempts older than the window, oldest first, a batch at a time', async () => {
      const webhook = await webhookOf();
      const held = [-300, -200, -100, 10].map((minutes) => attempt(webhook, { createdAt: at(minutes), nextAttemptAt: null }));
      await schedule(held);
      const heldBefore = at(0);
      // Other suites' held attempts are younger than T0: only these are old enough.
      expect(await ctx.h.uow.run((tx) => tx.webhookDeliveries.expireHeld(heldBefore, 2))).toBe(2);
      expect(await ctx.h.uow.run((tx) => tx.webhookDeliveries.expireHeld(heldBefore, 2))).toBe(1);
      const byEvent = new Map((await statuses(webhook)).map(([eventId, status]) => [eventId, status]));
      expect(held.map((d) => byEvent.get(d.eventId))).toEqual(['FAILED', 'FAILED', 'FAILED', 'PENDING']);
    });

    it("counts a webhook's consecutive failed attempts, a success ending the run and a reset starting afresh", async () => {
      const webhook = await webhookOf();
      const record = (...outcomes: DeliveryOutcome[]) => ctx.h.uow.run((tx) => tx.webhooks.recordDelivery(webhook.id, at(1), outcomes));
      expect([await record('FAILED'), await record('FAILED'), await record('SUCCESS'), await record('FAILED')]).toEqual([1, 2, 0, 1]);
      await ctx.h.uow.run((tx) => tx.webhooks.resetFailures(webhook.id));
      expect(await record('FAILED')).toBe(1);
      await ctx.h.uow.run((tx) => tx.webhooks.delete(webhook.id));
      expect(await record('FAILED')).toBeUndefined();
    });

    it('counts several outcomes in one call in their order, answering the longest run they made', async () => {
      const webhook = await webhookOf();
      const record = (...outcomes: DeliveryOutcome[]) => ctx.h.uow.run((tx) => tx.webhooks.recordDelivery(webhook.id, at(2), outcomes));
      // A run of 1 before them, 3 at its longest, then ended: 1 after them, 3 again after the next two, then 0.
      expect(await record('FAILED')).toBe(1);
      expect(await record('FAILED', 'FAILED', 'SUCCESS', 'FAILED')).toBe(3);
      expect(await record('FAILED', 'FAILED')).toBe(3);
      expect(await record('SUCCESS', 'FAILED', 'SUCCESS')).toBe(1);
      expect((await ctx.h.webhookQueries.get(webhook.id))?.toSnapshot()).toMatchObject({ lastDeliveryAt: at(2), lastDeliveryStatus: 'SUCCESS' });
      expect(await record('FAILED')).toBe(1);
    });

    it("finds a customer's webhooks and webhooks by id, whatever their status", async () => {
      const customerId = await ctx.newCustomer();
      const [first, second] = [await webhookOf(customerId), await webhookOf(customerId)];
      await ctx.h.uow.run((tx) => tx.webhooks.update(second.pause(at(1))));
      const other = await webhookOf();
      const ofCustomer = await ctx.h.uow.run((tx) => tx.webhooks.ofCustomers([customerId]));
      expect(ofCustomer.map((w) => [w.id, w.status]).sort()).toEqual(
        [
          [first.id, 'ACTIVE'],
          [second.id, 'PAUSED'],
        ].sort(),
      );
      const found = await ctx.h.uow.run((tx) => tx.webhooks.findMany([other.id, first.id, 999_999_999]));
      expect(found.map((w) => w.id).sort()).toEqual([first.id, other.id].sort());
    });

    it('dispatches an event to each subscribed webhook, and purges it only once no attempt of it is left to make, with its attempts', async () => {
      const customerId = await ctx.newCustomer();
      const [active, paused] = [await webhookOf(customerId), await webhookOf(customerId)];
      await ctx.h.uow.run((tx) => tx.webhooks.update(paused.pause(at(0))));
      const event = (n: number) => ({ customerId, type: 'receivable.paid' as const, occurredAt: at(n), data: { receivable: { id: n } } });
      await ctx.h.uow.run((tx) => tx.outbox.record([event(1), event(2), { ...event(3), type: 'movement.created' as const }]));
      await new DispatchWebhookEvents(new DispatchEvents(ctx.h.uow), new FixedClock(at(1))).execute();
      const sent = await claim([active, paused]);
      // The subscribed type only; the PAUSED webhook's attempts are held, not due.
      expect(sent.map((d) => [d.webhookId, JSON.parse(d.payload).data])).toEqual([
        [active.id, { receivable: { id: 1 } }],
        [active.id, { receivable: { id: 2 } }],
      ]);
      await ctx.h.uow.run((tx) => tx.webhookDeliveries.release(paused.id, at(1), at(0)));
      const released = await claim([paused]);
      await ctx.h.uow.run((tx) => tx.webhookDeliveries.complete([...sent, released[0]].map(({ id }) => ({ id, result: FAILED }))));

      await new PurgeEvents(ctx.h.uow, new FixedClock(at(40 * 24 * 60))).execute({ retentionDays: 30 });

      // Event 1's attempts are finished: it goes with them. Event 2 still has an attempt to make at the PAUSED one.
      const kept = (await ctx.h.eventQueries.list({ customerId }, { page: 1, count: 10 })).items.map((e) => e.data);
      expect(kept).toEqual([{ receivable: { id: 2 } }]);
      const history = async (webhook: Webhook) => (await statuses(webhook)).map(([eventId]) => eventId);
      expect(await history(active)).toEqual([sent[1].eventId]);
      expect(await history(paused)).toEqual([sent[1].eventId]);
    });

    it('purges finished test attempts past the event retention, a batch at a time, keeping pending and recent ones', async () => {
      const webhook = await webhookOf();
      const sendTest = async (minutes: number, result?: DeliveryResult) => {
        const { nextAttemptAt: _due, ...test } = attempt(webhook, { eventType: 'webhook.test', createdAt: at(minutes) });
        const sent = await ctx.h.uow.run((tx) => tx.webhookDeliveries.insert({ ...test, claimedUntil: at(minutes + 1) }));
        if (result) await ctx.h.uow.run((tx) => tx.webhookDeliveries.complete([{ id: sent.id, result }]));
        return test.eventId;
      };
      const DAY = 24 * 60;
      const [, , , inFlight, recent] = [
        await sendTest(0, FAILED),
        await sendTest(1, { ...FAILED, status: 'SUCCESS', responseCode: 204, failureReason: null }),
        await sendTest(2, FAILED),
        await sendTest(3),
        await sendTest(11 * DAY, FAILED),
      ];

      const purged = await new PurgeEvents(ctx.h.uow, new FixedClock(at(40 * DAY))).execute({ retentionDays: 30, batchSize: 2 });

      expect(purged.testAttempts).toBe(3);
      expect((await statuses(webhook)).map(([eventId]) => eventId).sort()).toEqual([inFlight, recent].sort());
    });

    it('completes a claimed attempt once, so it is due no more and a second sender’s result finds it ended', async () => {
      const webhook = await webhookOf();
      await schedule([attempt(webhook)]);
      const [claimed] = await claim([webhook]);
      const complete = (result: DeliveryResult) => ctx.h.uow.run((tx) => tx.webhookDeliveries.complete([{ id: claimed.id, result }]));
      expect(await complete(FAILED)).toEqual([expect.objectContaining({ id: claimed.id, status: 'FAILED', responseCode: 500 })]);
      expect(await claim([webhook], { now: at(10) })).toEqual([]);
      expect(await complete({ status: 'SUCCESS', responseCode: 200, durationMs: 1, failureReason: null })).toEqual([]);
      expect(await statuses(webhook)).toEqual([[claimed.eventId, 'FAILED', 'answered 500']]);
    });

    it('completes a batch of attempts in one call, each with its own result, leaving out those already ended', async () => {
      const webhook = await webhookOf();
      await schedule([attempt(webhook), attempt(webhook, { eventId: 'evt_b' }), attempt(webhook, { eventId: 'evt_c' })]);
      const [first, second, third] = await claim([webhook]);
      const OK: DeliveryResult = { status: 'SUCCESS', responseCode: 204, durationMs: 3, failureReason: null };
      await ctx.h.uow.run((tx) => tx.webhookDeliveries.complete([{ id: first.id, result: OK }]));
      const ended = await ctx.h.uow.run((tx) =>
        tx.webhookDeliveries.complete([
          { id: first.id, result: FAILED },
          { id: second.id, result: FAILED },
          { id: third.id, result: OK },
        ]),
      );
      expect(ended.map((d) => [d.id, d.status, d.responseCode, d.durationMs, d.failureReason]).sort()).toEqual(
        [
          [second.id, 'FAILED', 500, FAILED.durationMs, 'answered 500'],
          [third.id, 'SUCCESS', 204, 3, null],
        ].sort(),
      );
      expect((await statuses(webhook)).map(([, status]) => status).sort()).toEqual(['FAILED', 'SUCCESS', 'SUCCESS']);
    });
  });
}
