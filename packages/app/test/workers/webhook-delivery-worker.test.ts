import pino from 'pino';
import type { Application, DeliveryResult, DeliveryToSend } from '@rcs/domain';
import { WebhookDeliveryWorker } from '../../src/workers/webhook-workers';

const OK: DeliveryResult = { status: 'SUCCESS', responseCode: 200, durationMs: 5, failureReason: null };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('webhook delivery worker', () => {
  it('counts an answered attempt among maxInFlight until its result is recorded: its lease lapses after a fixed time', async () => {
    let due = 10;
    let lastWebhookId = 0;
    const recordings: Array<() => void> = [];
    const app = {
      webhooks: {
        deliver: {
          // One attempt of another webhook each, as many as asked for.
          claim: ({ limit }: { limit: number }) => {
            const taken = Math.min(limit, due);
            due -= taken;
            return Promise.resolve(Array.from({ length: taken }, () => ({ delivery: { webhookId: ++lastWebhookId } }) as unknown as DeliveryToSend));
          },
          // The endpoint answers at once; the recording waits until released.
          send: (_item: DeliveryToSend, answered: () => void) => {
            answered();
            return new Promise<DeliveryResult>((resolve) => recordings.push(() => resolve(OK)));
          },
        },
      },
    } as unknown as Application;
    const worker = new WebhookDeliveryWorker(app, { pollMs: 5, maxInFlight: 2, perWebhook: 1 }, pino({ enabled: false }));
    worker.start();
    await pause(100);
    expect(recordings).toHaveLength(2);
    recordings[0]();
    await pause(100);
    expect(recordings).toHaveLength(3);
    for (const record of recordings.slice(1)) record();
    await worker.stop();
  });
});
