import pino from 'pino';
import type { Application, DeliveryResult, DeliveryToSend } from '@rcs/domain';
import { PREFETCH_ROUNDS, WebhookDeliveryWorker } from '../../src/workers/webhook-workers';

const OK: DeliveryResult = { status: 'SUCCESS', responseCode: 200, durationMs: 5, failureReason: null };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An application whose claim hands out `due` attempts (of the webhook `webhookOf` names, as many as asked for and
 * the per-webhook cap allows), and whose sender waits for the test: `answer` makes the endpoint answer, `record`
 * then records the result.
 */
function fakeApplication(due: number, webhookOf: (n: number) => number) {
  let handed = 0;
  const claims: Array<{ limit: number; perWebhook: number; skipWebhooks: readonly number[] }> = [];
  const sends: Array<{ webhookId: number; answer: () => void; record: () => void }> = [];
  const app = {
    webhooks: {
      deliver: {
        claim: (claim: { limit: number; perWebhook: number; skipWebhooks: readonly number[] }) => {
          claims.push(claim);
          const taken: DeliveryToSend[] = [];
          const perWebhook = new Map<number, number>();
          for (let n = handed; n < due && taken.length < claim.limit; n++) {
            const webhookId = webhookOf(n);
            if (claim.skipWebhooks.includes(webhookId) || (perWebhook.get(webhookId) ?? 0) >= claim.perWebhook) continue;
            perWebhook.set(webhookId, (perWebhook.get(webhookId) ?? 0) + 1);
            taken.push({ delivery: { id: n, webhookId } } as unknown as DeliveryToSend);
          }
          handed += taken.length;
          return Promise.resolve(taken);
        },
        send: (item: DeliveryToSend, answered: () => void) =>
          new Promise<DeliveryResult>((resolve) =>
            sends.push({ webhookId: item.delivery.webhookId, answer: answered, record: () => (answered(), resolve(OK)) }),
          ),
      },
    },
  } as unknown as Application;
  return { app, claims, sends };
}

/** Stops the worker, recording every attempt it sends until it has stopped. */
async function drainAndStop(worker: WebhookDeliveryWorker, sends: ReadonlyArray<{ record: () => void }>) {
  let stopped = false;
  const stopping = worker.stop().then(() => (stopped = true));
  for (let recorded = 0; !stopped; await pause(2)) while (recorded < sends.length) sends[recorded++].record();
  await stopping;
}

describe('webhook delivery worker', () => {
  it('holds at most PREFETCH_ROUNDS times maxInFlight leased attempts until their results are recorded: a lease lapses after a fixed time', async () => {
    const { app, sends } = fakeApplication(100, (n) => n + 1);
    const worker = new WebhookDeliveryWorker(app, { pollMs: 5, maxInFlight: 2, perWebhook: 1 }, pino({ enabled: false }));
    worker.start();
    await pause(50);
    // Two sent at once; as each endpoint answers, the next held attempt goes out, its result still unrecorded.
    expect(sends).toHaveLength(2);
    for (let i = 0; i < 2 * PREFETCH_ROUNDS; i++) sends[i]?.answer();
    await pause(50);
    expect(sends).toHaveLength(2 * PREFETCH_ROUNDS);
    sends[0].record();
    await pause(50);
    expect(sends).toHaveLength(2 * PREFETCH_ROUNDS + 1);
    await drainAndStop(worker, sends);
  });

  it('sends at most perWebhook attempts of a webhook at once, the rest of its claim waiting their turn here', async () => {
    const { app, sends, claims } = fakeApplication(100, (n) => (n % 2) + 1);
    const worker = new WebhookDeliveryWorker(app, { pollMs: 5, maxInFlight: 50, perWebhook: 2 }, pino({ enabled: false }));
    worker.start();
    await pause(50);
    // One claim took PREFETCH_ROUNDS rounds of both webhooks' slots; two of each are out.
    expect(claims[0]).toMatchObject({ perWebhook: 2 * PREFETCH_ROUNDS });
    expect(sends.map((s) => s.webhookId)).toEqual([1, 1, 2, 2]);
    sends[0].answer();
    await pause(20);
    expect(sends.map((s) => s.webhookId)).toEqual([1, 1, 2, 2, 1]);
    // While a webhook has attempts waiting here, the next claims pass it by.
    await pause(20);
    expect(claims.slice(1).every((claim) => claim.skipWebhooks.includes(1) && claim.skipWebhooks.includes(2))).toBe(true);
    await drainAndStop(worker, sends);
  });

  it('claims again for a webhook down to its last round waiting, so the claim runs while that round goes out', async () => {
    const { app, sends, claims } = fakeApplication(100, () => 1);
    const worker = new WebhookDeliveryWorker(app, { pollMs: 60_000, maxInFlight: 50, perWebhook: 2 }, pino({ enabled: false }));
    worker.start();
    await pause(20);
    expect([claims.length, sends.length]).toEqual([1, 2]);
    // Two rounds out and answered: two more went out, two rounds still wait.
    for (let i = 0; i < 2; i++) sends[i].answer();
    await pause(20);
    expect([claims.length, sends.length]).toEqual([1, 4]);
    // One more round out: the last round waits, and the webhook is claimed for again.
    for (let i = 2; i < 4; i++) sends[i].answer();
    await pause(20);
    expect(sends).toHaveLength(6);
    expect(claims).toHaveLength(2);
    expect(claims[1].skipWebhooks).not.toContain(1);
    await drainAndStop(worker, sends);
  });

  it('sends what it holds before it stops, so no attempt waits for its lease to lapse', async () => {
    const { app, sends } = fakeApplication(3, () => 1);
    const worker = new WebhookDeliveryWorker(app, { pollMs: 5, maxInFlight: 10, perWebhook: 1 }, pino({ enabled: false }));
    worker.start();
    await pause(50);
    expect(sends).toHaveLength(1);
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    for (let i = 0; i < 3; i++) {
      await pause(20);
      expect(stopped).toBe(false);
      sends[i].record();
    }
    await stopping;
    expect(sends).toHaveLength(3);
  });
});
