import { inMemoryApplication } from '../testing';

describe('test delivery', () => {
  it('records the attempt PENDING under a lease before the call, and its result after', async () => {
    const { app, sender, store } = inMemoryApplication();
    const { webhook, secret } = await app.webhooks.register.execute({ customerId: 1, url: 'https://erp.example/hooks', events: ['receivable.paid'] });
    let seenDuringCall: unknown;
    sender.send = (request) => {
      seenDuringCall = [...store.committed.webhookDeliveries.values()].map((d) => [d.status, d.claimedUntil !== null, d.payload === request.body]);
      return Promise.resolve({ status: 'FAILED', responseCode: 503, durationMs: 7, failureReason: 'answered 503' });
    };
    const delivery = await app.webhooks.sendTest.execute({ customerId: 1, webhookId: webhook.id, eventType: 'receivable.paid' });
    expect(seenDuringCall).toEqual([['PENDING', true, true]]);
    expect(delivery).toMatchObject({ status: 'FAILED', responseCode: 503, durationMs: 7, attempt: 1, eventType: 'webhook.test' });
    expect([...store.committed.webhookDeliveries.values()][0].claimedUntil).toBeNull();
    expect((await app.webhooks.get.execute({ customerId: 1, webhookId: webhook.id })).toSnapshot().lastDeliveryStatus).toBe('FAILED');
    expect(secret).toMatch(/^whsec_/);
  });

  it('signs with the current and previous secrets after a rotation', async () => {
    const { app, sender } = inMemoryApplication();
    const { webhook, secret: first } = await app.webhooks.register.execute({ customerId: 1, url: 'https://erp.example/hooks', events: ['receivable.paid'] });
    const { secret: second } = await app.webhooks.rotateSecret.execute({ customerId: 1, webhookId: webhook.id });
    await app.webhooks.sendTest.execute({ customerId: 1, webhookId: webhook.id, eventType: 'webhook.test' });
    expect(sender.sent[0].secrets).toEqual([second, first]);
  });

  it("refuses another customer's webhook without calling it", async () => {
    const { app, sender } = inMemoryApplication();
    const { webhook } = await app.webhooks.register.execute({ customerId: 1, url: 'https://erp.example/hooks', events: ['receivable.paid'] });
    await expect(app.webhooks.sendTest.execute({ customerId: 2, webhookId: webhook.id, eventType: 'webhook.test' })).rejects.toMatchObject({
      code: 'resource-not-accessible',
    });
    expect(sender.sent).toEqual([]);
  });
});
