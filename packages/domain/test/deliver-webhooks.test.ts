import { createApplication, type DeliveryResult } from '../src';
import { inMemoryPorts } from '../testing';

const OK: DeliveryResult = { status: 'SUCCESS', responseCode: 200, durationMs: 5, failureReason: null };
const FAILED: DeliveryResult = { status: 'FAILED', responseCode: 503, durationMs: 5, failureReason: 'answered 503' };

describe('webhook delivery results', () => {
  it('counts a webhook’s run of failures in the order its endpoint answered, also within one recording batch', async () => {
    const ports = inMemoryPorts();
    const app = createApplication({ ...ports, webhookDelivery: { ...ports.webhookDelivery, failureThreshold: 2 } });
    const { webhook } = await app.webhooks.register.execute({ customerId: 1, url: 'https://erp.example/hooks', events: ['receivable.paid'] });
    const now = ports.clock.now();
    await ports.uow.run((tx) =>
      tx.webhookDeliveries.schedule(
        [1, 2, 3, 4].map((n) => ({
          webhookId: webhook.id,
          customerId: 1,
          eventId: `evt_${n}`,
          eventType: 'receivable.paid' as const,
          attempt: 1,
          payload: `{"id":"evt_${n}"}`,
          createdAt: now,
          nextAttemptAt: now,
        })),
      ),
    );
    const claimed = await app.webhooks.deliver.claim({ limit: 10, perWebhook: 10 });
    expect(claimed).toHaveLength(4);
    // The first answer is recorded at once; the other three arrive while it is, and are recorded together.
    const answers = [OK, FAILED, OK, FAILED];
    ports.sender.send = () => Promise.resolve(answers.shift()!);
    await Promise.all(claimed.map((item) => app.webhooks.deliver.send(item)));
    // Never two failures in a row: the webhook stays ACTIVE, its last delivery the last answer.
    const after = (await app.webhooks.get.execute({ customerId: 1, webhookId: webhook.id })).toSnapshot();
    expect([after.status, after.lastDeliveryStatus]).toEqual(['ACTIVE', 'FAILED']);
  });
});
