import { createApplication, LOST_ATTEMPT, RETRY_DELAYS_MS, type DeliveryResult } from '../src';
import { inMemoryPorts } from '../testing';

const FAILED: DeliveryResult = { status: 'FAILED', responseCode: 503, durationMs: 5, failureReason: 'answered 503' };

describe('a redelivery of an event the dispatcher has not scheduled yet', () => {
  it('leaves number 1 to the automatic first attempt, which the dispatch still schedules with its retries', async () => {
    const ports = inMemoryPorts();
    const app = createApplication(ports);
    const { webhook } = await app.webhooks.register.execute({ customerId: 1, url: 'https://erp.example/hooks', events: ['receivable.paid'] });
    await ports.uow.run((tx) => tx.outbox.record([{ customerId: 1, type: 'receivable.paid', occurredAt: ports.clock.now(), data: { receivable: { id: 7 } } }]));
    const [event] = (await ports.eventQueries.list({ customerId: 1 }, { page: 1, count: 1 })).items;
    ports.sender.send = () => Promise.resolve(FAILED);

    const manual = await app.webhooks.redeliver.execute({ customerId: 1, webhookId: webhook.id, eventId: event.id });
    while ((await app.webhooks.dispatch.execute({})) > 0);

    const history = await app.webhooks.deliveries.execute({ customerId: 1, webhookId: webhook.id, filter: {}, page: { page: 1, count: 20 } });
    expect(history.items.map((d) => [d.attempt, d.status]).sort()).toEqual([
      [1, 'PENDING'],
      [2, 'FAILED'],
    ]);
    expect(manual.attempt).toBe(2);
  });
});

describe('the retry schedule beside manual redeliveries', () => {
  /** A webhook whose endpoint fails everything, subscribed to one event that is dispatched. */
  async function failingEndpoint() {
    const ports = inMemoryPorts();
    const app = createApplication({ ...ports, webhookDelivery: { ...ports.webhookDelivery, failureThreshold: 100 } });
    const { webhook } = await app.webhooks.register.execute({ customerId: 1, url: 'https://erp.example/hooks', events: ['receivable.paid'] });
    await ports.uow.run((tx) => tx.outbox.record([{ customerId: 1, type: 'receivable.paid', occurredAt: ports.clock.now(), data: { receivable: { id: 7 } } }]));
    const [event] = (await ports.eventQueries.list({ customerId: 1 }, { page: 1, count: 1 })).items;
    while ((await app.webhooks.dispatch.execute({})) > 0);
    ports.sender.send = () => Promise.resolve(FAILED);
    const history = async () =>
      (await app.webhooks.deliveries.execute({ customerId: 1, webhookId: webhook.id, filter: {}, page: { page: 1, count: 50 } })).items;
    const redeliver = () => app.webhooks.redeliver.execute({ customerId: 1, webhookId: webhook.id, eventId: event.id });
    return { ports, app, history, redeliver };
  }

  it('keeps every step for the automatic attempts, whatever numbers redeliveries take among them', async () => {
    const { ports, app, history, redeliver } = await failingEndpoint();
    const sentAt: number[] = [];
    for (;;) {
      const due = (await history()).find((d) => d.status === 'PENDING');
      if (!due) break;
      ports.clock.advance(Math.max(0, due.nextAttemptAt!.getTime() - ports.clock.now().getTime()));
      const claimed = await app.webhooks.deliver.claim({ limit: 10, perWebhook: 10 });
      expect(claimed).toHaveLength(1);
      sentAt.push(ports.clock.now().getTime());
      await app.webhooks.deliver.send(claimed[0]);
      // Two redeliveries after the first failure, one after the third: each takes the next number.
      if (sentAt.length === 1) await Promise.all([redeliver(), redeliver()]);
      if (sentAt.length === 3) await redeliver();
    }
    const gaps = sentAt.slice(1).map((at, n) => at - sentAt[n]);
    expect(gaps).toEqual(RETRY_DELAYS_MS.slice(1));
    const attempts = (await history()).map((d) => d.attempt).sort((a, b) => a - b);
    expect(attempts).toEqual(Array.from({ length: RETRY_DELAYS_MS.length + 3 }, (_, n) => n + 1));
  });

  it('sends a redelivery whose sender died once, not again as a retry: its caller had no answer and decides', async () => {
    const { ports, app, history, redeliver } = await failingEndpoint();
    // The automatic first attempt ends; a redelivery is made and its worker dies before recording the answer.
    await app.webhooks.deliver.send((await app.webhooks.deliver.claim({ limit: 10, perWebhook: 10 }))[0]);
    ports.sender.send = () => new Promise(() => undefined);
    void redeliver();
    await new Promise((resolve) => setImmediate(resolve));
    ports.sender.send = () => Promise.resolve(FAILED);
    ports.clock.advance(30_001);
    const claimed = await app.webhooks.deliver.claim({ limit: 10, perWebhook: 10 });
    // Only the automatic retry, due 5 s after the first attempt's failure; the lost redelivery is ended, not sent.
    expect(claimed.map(({ delivery }) => [delivery.attempt, delivery.scheduleStep])).toEqual([[2, 2]]);
    expect((await history()).map((d) => [d.attempt, d.status, d.failureReason]).sort()).toEqual([
      [1, 'FAILED', FAILED.failureReason],
      [2, 'PENDING', null],
      [3, 'FAILED', LOST_ATTEMPT.failureReason],
    ]);
  });
});
