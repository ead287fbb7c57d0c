import {
  DispatchEvents,
  DispatchWebhookEvents,
  EXPIRED_REASON,
  LOST_ATTEMPT,
  PurgeEvents,
  type DeliveryOutcome,
  type DeliveryResult,
  type Webhook,
  type WebhookDelivery,
} from '../../src';
import { FixedClock } from '../fakes';
import { useHarness, type HarnessFactory } from './harness';
import { at, deliveryFixtures, FAILED } from './webhook-delivery-fixtures';

/** What the dispatcher and the delivery worker ask of storage besides claims: holding, expiring, recording, purging. */
export function webhookDeliveryRepositoryContract(factory: HarnessFactory): void {
  describe('webhook delivery repository', () => {
    const ctx = useHarness(factory);
    const { webhookOf, attempt, schedule, claim, statuses } = deliveryFixtures(ctx);

    it('holds attempts until a release makes them due, with the retries scheduled later, expiring those held since before the window', async () => {
      const webhook = await webhookOf();
      const [old, recent, leased, retry] = [
        attempt(webhook, { createdAt: at(-100), nextAttemptAt: null }),
        attempt(webhook, { nextAttemptAt: null }),
        attempt(webhook),
        attempt(webhook, { nextAttemptAt: at(600) }),
      ];
      await schedule([old, recent, leased, retry]);
      const [claimed] = await claim([webhook]);
      expect(claimed.eventId).toBe(leased.eventId);
      await ctx.h.uow.run((tx) => tx.webhookDeliveries.hold([claimed.id]));
      expect(await claim([webhook], { now: at(30) })).toEqual([]);
      const released = await ctx.h.uow.run((tx) => tx.webhookDeliveries.release(webhook.id, at(1), at(-10)));
      expect(released).toEqual({ released: 3, expired: 1 });
      expect((await claim([webhook])).map((d) => d.eventId).sort()).toEqual([recent.eventId, leased.eventId, retry.eventId].sort());
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

    it('claims no attempt of a deleted webhook, stores none scheduled for it after, and the event purge deletes those it had', async () => {
      const webhook = await webhookOf();
      const [due, late] = [attempt(webhook), attempt(webhook)];
      await schedule([due]);
      await ctx.h.uow.run((tx) => tx.webhooks.delete(webhook.id));
      await schedule([late]);
      expect(await claim([webhook])).toEqual([]);
      const stored = (eventId: string) => ctx.h.uow.run((tx) => tx.webhookDeliveries.lastAttempt(webhook.id, eventId));
      expect([await stored(due.eventId), await stored(late.eventId)]).toEqual([1, 0]);
      await new PurgeEvents(ctx.h.uow, new FixedClock(at(10))).execute({ retentionDays: 30, batchSize: 1 });
      expect(await stored(due.eventId)).toBe(0);
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

    it('records when an attempt was sent apart, keeping its place in the history (creationDate never moves)', async () => {
      const webhook = await webhookOf();
      await schedule([attempt(webhook, { createdAt: at(-60) }), attempt(webhook, { eventId: 'evt_lost', createdAt: at(-60) })]);
      const [sent, lost] = await claim([webhook]);
      expect([sent.createdAt, lost.createdAt]).toEqual([at(-60), at(-60)]);
      const ended = await ctx.h.uow.run((tx) =>
        tx.webhookDeliveries.complete([
          { id: sent.id, result: FAILED, sentAt: at(5) },
          { id: lost.id, result: LOST_ATTEMPT },
        ]),
      );
      const dates = (deliveries: readonly WebhookDelivery[]) => new Map(deliveries.map((d) => [d.id, [d.createdAt, d.attemptedAt]]));
      const expected = new Map([
        [sent.id, [at(-60), at(5)]],
        [lost.id, [at(-60), null]],
      ]);
      expect(dates(ended)).toEqual(expected);
      const history = await ctx.h.webhookQueries.deliveries({ customerId: webhook.customerId, webhookId: webhook.id }, { page: 1, count: 10 });
      expect(dates(history.items)).toEqual(expected);
      expect(history.items.map((d) => d.id)).toEqual([lost.id, sent.id]);
    });
  });
}
