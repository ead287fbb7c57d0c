import type { ClaimedDelivery, Webhook } from '../../src';
import { useHarness, type HarnessFactory, type TestDefinition } from './harness';
import { at, deliveryFixtures, FAILED } from './webhook-delivery-fixtures';

/** What the delivery worker asks of storage to find work: scheduling, claiming with leases, giving back. */
export function webhookDeliveryClaimContract(factory: HarnessFactory, itRacing: TestDefinition): void {
  describe('webhook delivery claims', () => {
    const ctx = useHarness(factory);
    const { webhookOf, attempt, schedule, claim, statuses } = deliveryFixtures(ctx);

    it('schedules an attempt once: the same webhook, event and attempt again, in the same call or later, is left as it is', async () => {
      const webhook = await webhookOf();
      const first = attempt(webhook);
      await schedule([first, attempt(webhook), { ...first, payload: '{"twice":true}' }]);
      await schedule([
        { ...first, payload: '{"changed":true}' },
        { ...first, attempt: 3 },
      ]);
      const lastAttempt = (eventId: string) => ctx.h.uow.run((tx) => tx.webhookDeliveries.lastAttempt(webhook.id, eventId));
      expect([await lastAttempt(first.eventId), await lastAttempt('evt_none')]).toEqual([3, 0]);
      const claimed = (await claim([webhook])).filter((d) => d.attempt === 1);
      expect(claimed).toHaveLength(2);
      const { nextAttemptAt: _due, ...stored } = first;
      expect(claimed.find((d) => d.eventId === first.eventId)).toEqual({ ...stored, id: expect.any(Number), lapsed: false });
    });

    it('claims each attempt with its schedule step, or none for one outside the schedule, a lapsed lease’s too', async () => {
      const webhook = await webhookOf();
      const [retry, redelivered] = [attempt(webhook, { attempt: 4, scheduleStep: 3 }), attempt(webhook, { attempt: 2, scheduleStep: null })];
      await schedule([retry]);
      await ctx.h.uow.run((tx) => tx.webhookDeliveries.insert({ ...redelivered, claimedUntil: at(1) }));
      const steps = (claimed: ClaimedDelivery[]) => claimed.map((d) => [d.eventId, d.attempt, d.scheduleStep, d.lapsed]).sort();
      expect(steps(await claim([webhook]))).toEqual([
        [retry.eventId, 4, 3, false],
        [redelivered.eventId, 2, null, true],
      ]);
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
      // Only these say so: their first sender may have sent them, with no answer recorded.
      expect([...first, ...second].map((d) => d.lapsed)).toEqual([false, false, false, false]);
      expect(lapsed.map((d) => d.lapsed)).toEqual([true, true, true, true]);
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
      const givenBack = await claim([webhook, other]);
      expect(ids(givenBack)).toEqual([given.id, inserted.id]);
      // Given back unsent, not lapsed: no sender may have sent them.
      expect(givenBack.map((d) => d.lapsed)).toEqual([false, false]);
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

    it('claims an attempt made due sooner than those its webhook had left, and those when their time comes', async () => {
      const webhook = await webhookOf();
      const [first, later] = [attempt(webhook), attempt(webhook, { nextAttemptAt: at(50) })];
      await schedule([first, later]);
      const [sent] = await claim([webhook]);
      await ctx.h.uow.run((tx) => tx.webhookDeliveries.complete([{ id: sent.id, result: FAILED }]));
      // Its retry is due before the attempt the webhook had left, and before the lease the claim took had lapsed.
      await schedule([{ ...first, attempt: 2, nextAttemptAt: at(1) }]);
      const [retry] = await claim([webhook]);
      expect([retry.eventId, retry.attempt]).toEqual([first.eventId, 2]);
      await ctx.h.uow.run((tx) => tx.webhookDeliveries.complete([{ id: retry.id, result: FAILED }]));
      expect((await claim([webhook], { now: at(50), claimedUntil: at(100_000) })).map((d) => d.eventId)).toEqual([later.eventId]);
    });
  });
}
