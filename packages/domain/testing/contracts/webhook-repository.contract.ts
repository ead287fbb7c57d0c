import { ConcurrentModificationError, Webhook, type NewWebhookDelivery, type WebhookSubscription } from '../../src';
import { useHarness, type HarnessFactory } from './harness';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const subscription: WebhookSubscription = { url: 'https://erp.example/hooks', events: ['receivable.paid', 'movement.created'] };
const secret = (n: number) => ({ sealed: `sealed-${n}`, tail: `000${n}`.slice(-4) });

export function webhookRepositoryContract(factory: HarnessFactory): void {
  describe('webhook repository', () => {
    const ctx = useHarness(factory);
    const register = async (customerId: number, minutes = 0) =>
      ctx.h.uow.run((tx) => tx.webhooks.insert(Webhook.register(customerId, subscription, secret(1), at(minutes))));
    const attempt = (webhook: Webhook, overrides: Partial<NewWebhookDelivery> = {}): NewWebhookDelivery => ({
      webhookId: webhook.id,
      customerId: webhook.customerId,
      eventId: 'evt_a',
      eventType: 'receivable.paid',
      attempt: 1,
      scheduleStep: 1,
      payload: '{"id":"evt_a"}',
      createdAt: at(1),
      claimedUntil: at(2),
      ...overrides,
    });

    it('stores a webhook with its sealed secrets and reads it back', async () => {
      const customerId = await ctx.newCustomer();
      const webhook = await register(customerId);
      expect((await ctx.h.webhookQueries.get(webhook.id))?.toSnapshot()).toEqual(webhook.toSnapshot());
      expect(webhook.toSnapshot()).toMatchObject({ ...subscription, customerId, status: 'ACTIVE', secrets: { current: secret(1), previous: [] } });
    });

    it('saves a rotation with the previous secret and its expiry, and refuses a stale write', async () => {
      const webhook = await register(await ctx.newCustomer());
      const rotated = webhook.rotateSecret(secret(2), at(5));
      await ctx.h.uow.run((tx) => tx.webhooks.update(rotated));
      expect((await ctx.h.webhookQueries.get(webhook.id))?.toSnapshot()).toEqual(rotated.toSnapshot());
      await expect(ctx.h.uow.run((tx) => tx.webhooks.update(webhook.pause(at(6))))).rejects.toBeInstanceOf(ConcurrentModificationError);
    });

    it('records the last delivery without a version check', async () => {
      const webhook = await register(await ctx.newCustomer());
      await ctx.h.uow.run((tx) => tx.webhooks.recordDelivery(webhook.id, at(3), ['FAILED']));
      const read = (await ctx.h.webhookQueries.get(webhook.id))!.toSnapshot();
      expect([read.lastDeliveryAt, read.lastDeliveryStatus, read.version]).toEqual([at(3), 'FAILED', 1]);
      await ctx.h.uow.run((tx) => tx.webhooks.update(webhook.pause(at(4))));
      expect((await ctx.h.webhookQueries.get(webhook.id))?.status).toBe('PAUSED');
    });

    it("answers some webhooks' statuses, leaving out the ones gone", async () => {
      const customerId = await ctx.newCustomer();
      const [active, paused, gone] = [await register(customerId), await register(customerId), await register(customerId)];
      await ctx.h.uow.run((tx) => tx.webhooks.update(paused.pause(at(1))));
      await ctx.h.uow.run((tx) => tx.webhooks.delete(gone.id));
      for (const wait of [true, false]) {
        const answered = await ctx.h.uow.run((tx) => tx.webhooks.lockedStatuses([gone.id, paused.id, active.id], wait));
        expect([...answered]).toEqual([
          [active.id, 'ACTIVE'],
          [paused.id, 'PAUSED'],
        ]);
      }
    });

    it("lists a customer's webhooks newest first, and none of another's", async () => {
      const customerId = await ctx.newCustomer();
      const first = await register(customerId, 0);
      const second = await register(customerId, 1);
      await register(await ctx.newCustomer(), 2);
      const page = await ctx.h.webhookQueries.list({ customerId }, { page: 1, count: 20 });
      expect([page.items.map((w) => w.id), page.total]).toEqual([[second.id, first.id], 2]);
      expect((await ctx.h.webhookQueries.list({ customerId, fromDate: at(1) }, { page: 1, count: 20 })).items.map((w) => w.id)).toEqual([second.id]);
    });

    it('records an attempt PENDING, completes it, and lists the history with every filter', async () => {
      const webhook = await register(await ctx.newCustomer());
      const first = await ctx.h.uow.run((tx) => tx.webhookDeliveries.insert(attempt(webhook)));
      expect(first).toMatchObject({ status: 'PENDING', attempt: 1, responseCode: null, durationMs: null, failureReason: null, createdAt: at(1) });
      const [done] = await ctx.h.uow.run((tx) =>
        tx.webhookDeliveries.complete([{ id: first.id, result: { status: 'FAILED', responseCode: 503, durationMs: 12, failureReason: 'answered 503' } }]),
      );
      expect(done).toEqual({ ...first, status: 'FAILED', responseCode: 503, durationMs: 12, failureReason: 'answered 503' });
      const second = await ctx.h.uow.run((tx) => tx.webhookDeliveries.insert(attempt(webhook, { attempt: 2, createdAt: at(3) })));
      const other = await ctx.h.uow.run((tx) =>
        tx.webhookDeliveries.insert(attempt(webhook, { eventId: 'evt_b', eventType: 'movement.created', createdAt: at(5) })),
      );
      const ids = (filter: object) =>
        ctx.h.webhookQueries
          .deliveries({ webhookId: webhook.id, customerId: webhook.customerId, ...filter }, { page: 1, count: 20 })
          .then((p) => p.items.map((d) => d.id));
      expect(await ids({})).toEqual([other.id, second.id, first.id]);
      expect(await ids({ status: 'FAILED' })).toEqual([first.id]);
      expect(await ids({ status: 'PENDING', eventType: 'receivable.paid' })).toEqual([second.id]);
      expect(await ids({ eventId: 'evt_a' })).toEqual([second.id, first.id]);
      expect(await ids({ fromDate: at(2), toDate: at(3) })).toEqual([second.id]);
    });

    it('deletes a webhook at once, its history in no answer and kept for the purge, and stores no attempt scheduled for it after', async () => {
      const webhook = await register(await ctx.newCustomer());
      const history = () => ctx.h.webhookQueries.deliveries({ webhookId: webhook.id, customerId: webhook.customerId }, { page: 1, count: 20 });
      const stored = (eventId: string) => ctx.h.uow.run((tx) => tx.webhookDeliveries.lastAttempt(webhook.id, eventId));
      await ctx.h.uow.run((tx) => tx.webhookDeliveries.insert(attempt(webhook)));
      await ctx.h.uow.run((tx) => tx.webhooks.delete(webhook.id));
      expect(await ctx.h.webhookQueries.get(webhook.id)).toBeUndefined();
      expect(await history()).toMatchObject({ items: [], total: 0 });
      expect(await stored('evt_a')).toBe(1);
      // A dispatch that read the webhook before its deletion schedules for it after: nothing is stored.
      const { claimedUntil: _leased, ...late } = attempt(webhook, { eventId: 'evt_late' });
      await ctx.h.uow.run((tx) => tx.webhookDeliveries.schedule([{ ...late, nextAttemptAt: at(1) }]));
      expect(await stored('evt_late')).toBe(0);

      await ctx.h.uow.run((tx) => tx.webhookDeliveries.purgeOfDeletedWebhooks(1_000));
      expect(await stored('evt_a')).toBe(0);
    });

    it('answers which of the webhooks it locks for recording exist', async () => {
      const customerId = await ctx.newCustomer();
      const [kept, gone] = [await register(customerId), await register(customerId)];
      await ctx.h.uow.run((tx) => tx.webhooks.delete(gone.id));
      expect([...(await ctx.h.uow.run((tx) => tx.webhooks.lockForRecording([gone.id, kept.id])))]).toEqual([kept.id]);
    });
  });
}
