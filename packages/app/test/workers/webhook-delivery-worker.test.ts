import pino from 'pino';
import type { Application, DeliveryResult, DeliveryToSend } from '@rcs/domain';
import { PREFETCH_ROUNDS, WebhookDeliveryWorker } from '../../src/workers/webhook-workers';

const OK: DeliveryResult = { status: 'SUCCESS', responseCode: 200, durationMs: 5, failureReason: null };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
type Claim = {
  limit: number;
  perWebhook: number;
  skipWebhooks: readonly number[];
  shares?: ReadonlyArray<{ webhookId: number; perWebhook: number }>;
  held?: ReadonlySet<number>;
};

/**
 * An application whose claim leases the `due` attempts (of the webhook `webhookOf` names) as storage does: in id
 * order, as many as asked for and the per-webhook cap (or the webhook's share) allows, none of a skipped webhook, each once until it is given
 * back (or `lapse` makes its lease run out while the worker holds it; `comesDue` makes a new one due). Its sender waits for the test: `answer` makes the endpoint answer,
 * `record` then records the result.
 */
function fakeApplication(due: number, webhookOf: (n: number) => number, customerOf: (webhookId: number) => number = () => 1) {
  const available = new Set(Array.from({ length: due }, (_, n) => n));
  /** Leased to the worker, lease lapsed: claimed again, leased anew; given back, due. */
  const lapsed = new Set<number>();
  const claims: Claim[] = [];
  const givenBack: number[] = [];
  const leases: Array<{ id: number; claim: number }> = [];
  const sends: Array<{ id: number; webhookId: number; answer: () => void; record: () => void }> = [];
  const app = {
    webhooks: {
      deliver: {
        claim: (claim: Claim) => {
          claims.push(claim);
          // As the real claim: a lapsed attempt the worker does not say it holds is taken for lost and sent again.
          for (const n of available) {
            if (lapsed.has(n) && !claim.held?.has(n)) throw new Error(`attempt ${n} lapsed in this worker's hands, claimed without saying so`);
          }
          const taken: DeliveryToSend[] = [];
          const perWebhook = new Map<number, number>();
          for (const n of [...available].sort((a, b) => a - b)) {
            const webhookId = webhookOf(n);
            if (taken.length >= claim.limit) break;
            const cap = (claim.shares ?? []).find((share) => share.webhookId === webhookId)?.perWebhook ?? claim.perWebhook;
            if (claim.skipWebhooks.includes(webhookId) || (perWebhook.get(webhookId) ?? 0) >= cap) continue;
            perWebhook.set(webhookId, (perWebhook.get(webhookId) ?? 0) + 1);
            available.delete(n);
            lapsed.delete(n);
            // Each claim's lease told apart by the claim's number.
            taken.push({
              delivery: { id: n, webhookId, customerId: customerOf(webhookId) },
              leasedUntil: new Date(claims.length),
            } as unknown as DeliveryToSend);
          }
          return Promise.resolve(taken);
        },
        giveBack: (attempts: readonly DeliveryToSend[]) => {
          for (const { delivery, leasedUntil } of attempts) {
            givenBack.push(delivery.id);
            lapsed.delete(delivery.id);
            leases.push({ id: delivery.id, claim: leasedUntil.getTime() });
            available.add(delivery.id);
          }
          return Promise.resolve();
        },
        send: (item: DeliveryToSend, answered: () => void) =>
          new Promise<DeliveryResult>((resolve) =>
            sends.push({ id: item.delivery.id, webhookId: item.delivery.webhookId, answer: answered, record: () => (answered(), resolve(OK)) }),
          ),
      },
    },
  } as unknown as Application;
  const lapse = (id: number) => {
    lapsed.add(id);
    available.add(id);
  };
  /** A new attempt due. */
  const comesDue = (id: number) => available.add(id);
  return { app, claims, sends, givenBack, leases, lapse, comesDue };
}

const options = { pollMs: 5, maxInFlight: 50, perWebhook: 2, perCustomer: 50, maxWaitMs: 60_000 };
const workerOf = (app: Application, overrides: Partial<typeof options> = {}) =>
  new WebhookDeliveryWorker(app, { ...options, ...overrides }, pino({ enabled: false }));

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
    const worker = workerOf(app, { maxInFlight: 2, perWebhook: 1 });
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
    const worker = workerOf(app);
    worker.start();
    await pause(50);
    // One claim took PREFETCH_ROUNDS rounds of both webhooks' slots; two of each are out.
    expect(claims[0]).toMatchObject({ perWebhook: 2 * PREFETCH_ROUNDS });
    // In turn: each webhook's first, then each one's second.
    expect(sends.map((s) => s.webhookId)).toEqual([1, 2, 1, 2]);
    sends[0].answer();
    await pause(20);
    expect(sends.map((s) => s.webhookId)).toEqual([1, 2, 1, 2, 1]);
    // While a webhook has attempts waiting here, the next claims pass it by.
    await pause(20);
    expect(claims.length).toBeGreaterThan(1);
    expect(claims.slice(1).every((claim) => claim.skipWebhooks.includes(1) && claim.skipWebhooks.includes(2))).toBe(true);
    await drainAndStop(worker, sends);
  });

  it('claims again for a webhook down to its last round waiting, so the claim runs while that round goes out', async () => {
    const { app, sends, claims } = fakeApplication(100, () => 1);
    const worker = workerOf(app, { pollMs: 60_000 });
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

  it('gives a freed slot to the webhooks in turn when every slot is taken', async () => {
    // Three webhooks, two slots in all: the first two webhooks held must not take every freed slot.
    const { app, sends } = fakeApplication(60, (n) => (n % 3) + 1);
    const worker = workerOf(app, { maxInFlight: 2, perWebhook: 2 });
    worker.start();
    await pause(30);
    for (let i = 0; i < 2; i++) {
      sends[i].record();
      await pause(5);
    }
    // Held in the order 1, 2, 3 (three of each): in turn, the third webhook's first goes out third, not seventh.
    expect(sends.slice(0, 4).map((s) => s.webhookId)).toEqual([1, 2, 3, 1]);
    await drainAndStop(worker, sends);
  });

  it("sends at most perCustomer attempts of one customer's webhooks at once, so its hanging endpoints leave another customer slots", async () => {
    // Customer 1's webhooks 1 to 4 (four attempts each, claimed first) would take all 8 slots and hang on them.
    const { app, sends, claims } = fakeApplication(
      20,
      (n) => (n < 16 ? (n % 4) + 1 : 5),
      (webhookId) => (webhookId === 5 ? 2 : 1),
    );
    const worker = workerOf(app, { maxInFlight: 8, perWebhook: 2, perCustomer: 4 });
    worker.start();
    await pause(30);
    expect(sends.map((s) => s.webhookId)).toEqual([1, 2, 3, 4, 5, 5]);
    // While customer 1 holds its share, claims pass its webhooks by; a freed slot of its goes to its next webhook.
    expect(claims.length).toBeGreaterThan(1);
    expect(claims.slice(1).every((claim) => [1, 2, 3, 4].every((id) => claim.skipWebhooks.includes(id)))).toBe(true);
    sends[0].answer();
    await pause(20);
    expect(sends.map((s) => s.webhookId)).toEqual([1, 2, 3, 4, 5, 5, 1]);
    await drainAndStop(worker, sends);
  });

  it("claims for a customer with more webhooks than its share no more than its share's rounds, leaving room for another customer", async () => {
    // Customer 1's twenty hanging webhooks have 80 attempts due before customer 2's; their leases would fill the worker's room.
    const { app, sends, givenBack } = fakeApplication(
      84,
      (n) => (n < 80 ? (n % 20) + 1 : 21),
      (webhookId) => (webhookId === 21 ? 2 : 1),
    );
    const worker = workerOf(app, { maxInFlight: 8, perWebhook: 2, perCustomer: 4 });
    worker.start();
    await pause(100);
    expect(sends.filter((s) => s.webhookId === 21)).toHaveLength(2);
    expect(sends.filter((s) => s.webhookId !== 21)).toHaveLength(4);
    // What went back went back at once, each once: claims pass customer 1's webhooks by while it is served.
    expect(givenBack).toEqual([...new Set(givenBack)]);
    await drainAndStop(worker, sends);
  });

  it('passes by a webhook of a customer holding its share once its attempts went back, and claims for it again when the share frees', async () => {
    // Customer 1's webhooks 1 and 2 take its two slots; webhook 3's attempts wait, go back, and are not claimed again meanwhile.
    const { app, sends, claims, givenBack } = fakeApplication(4, (n) => Math.min(n, 2) + 1);
    const worker = workerOf(app, { maxInFlight: 8, perWebhook: 1, perCustomer: 2, maxWaitMs: 40 });
    worker.start();
    await pause(300);
    expect(sends.map((s) => s.webhookId)).toEqual([1, 2]);
    expect(givenBack).toEqual([2, 3]);
    const since = claims.length;
    await pause(100);
    expect(claims.slice(since).every((claim) => claim.skipWebhooks.includes(3))).toBe(true);
    sends[0].record();
    await pause(100);
    expect(sends.map((s) => s.webhookId)).toContain(3);
    await drainAndStop(worker, sends);
  });

  it('gives back attempts that waited past maxWaitMs instead of sending them, and passes their webhook by until a slot frees', async () => {
    const { app, sends, claims, givenBack } = fakeApplication(20, () => 1);
    const worker = workerOf(app, { perWebhook: 1, maxWaitMs: 100 });
    worker.start();
    await pause(250);
    // The endpoint hangs on its first attempt: the rest of the claim went back, due again for a claim that reads
    // the webhook afresh, and no claim took them again meanwhile.
    expect(sends.map((s) => s.id)).toEqual([0]);
    expect(givenBack.sort((a, b) => a - b)).toEqual([1, 2, 3]);
    expect(claims.length).toBeGreaterThan(1);
    expect(claims.slice(1).every((claim) => claim.skipWebhooks.includes(1))).toBe(true);
    // Answered: the webhook is claimed for again, and its next attempt goes out.
    sends[0].record();
    await pause(30);
    expect(sends.map((s) => s.id)).toEqual([0, 1]);
    await drainAndStop(worker, sends);
  });

  /** A worker over one webhook's 40 attempts whose endpoint answers each `answerMs` after it went out, `answers` times. */
  async function slowEndpoint(answerMs: number, maxWaitMs: number, answers: number, pollMs = options.pollMs) {
    const fake = fakeApplication(40, () => 1);
    const worker = workerOf(fake.app, { perWebhook: 1, maxWaitMs, pollMs });
    worker.start();
    for (let answered = 0; answered < answers; answered++) {
      for (let waited = 0; fake.sends.length <= answered && waited < 2 * answerMs; waited += 5) await pause(5);
      await pause(answerMs);
      fake.sends[answered]?.record();
    }
    const sent = fake.sends.slice(0, answers).map((s) => s.id);
    await drainAndStop(worker, fake.sends);
    return { ...fake, sent };
  }

  it('claims for a slow endpoint only the rounds of its slots it answers within maxWaitMs, so no more go back', async () => {
    // One round of its slot goes out within maxWaitMs, with 400 ms to spare.
    const { sent, givenBack, claims } = await slowEndpoint(600, 1_000, 5);
    // The first claim, before any answer, took PREFETCH_ROUNDS rounds: two waited too long and went back. Since, none
    // (claimed four at a time, two of every four went back).
    expect(givenBack.sort((a, b) => a - b)).toEqual([2, 3]);
    expect(sent).toEqual([0, 1, 2, 3, 4]);
    const later = claims.slice(1).filter((claim) => !claim.skipWebhooks.includes(1));
    expect(later.length).toBeGreaterThan(0);
    // Its free slot and one round at most, less what waits: both when its slot was free.
    const shares = later.map((claim) => (claim.shares ?? []).find((share) => share.webhookId === 1)?.perWebhook);
    expect([Math.max(...shares.map(Number)), shares.every((share) => share !== undefined)]).toEqual([2, true]);
  }, 15_000);

  it('claims for an endpoint slower than maxWaitMs only what its free slots send at once, as soon as one frees', async () => {
    // No timed pass: each claim comes from the endpoint answering.
    const { sent, givenBack, claims } = await slowEndpoint(450, 300, 5, 60_000);
    // The first claim's three waiting went back; after the first answer, one at a time and none back.
    expect(givenBack.sort((a, b) => a - b)).toEqual([1, 2, 3]);
    expect(sent).toEqual([0, 1, 2, 3, 4]);
    const later = claims.slice(1).filter((claim) => !claim.skipWebhooks.includes(1));
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((claim) => (claim.shares ?? []).some((share) => share.webhookId === 1 && share.perWebhook === 1))).toBe(true);
  }, 15_000);

  it('does not send an attempt that went stale waiting, even when no pass ran since, and claims at once for the freed slot', async () => {
    // No timed pass: what happens comes from the endpoint answering.
    const { app, sends, claims, givenBack } = fakeApplication(20, () => 1);
    const worker = workerOf(app, { pollMs: 60_000, perWebhook: 1, maxWaitMs: 100 });
    worker.start();
    await pause(150);
    expect([sends.length, claims.length, givenBack]).toEqual([1, 1, []]);
    sends[0].record();
    await pause(30);
    // The slot's next attempts waited past maxWaitMs: given back, not sent; the freed slot claimed for at once.
    expect(givenBack.sort((a, b) => a - b)).toEqual([1, 2, 3]);
    expect(claims).toHaveLength(2);
    expect(sends.map((s) => s.id)).toEqual([0, 1]);
    await drainAndStop(worker, sends);
  });

  it('claims when a slot frees after a pass found every slot taken', async () => {
    // One slot in all; three webhooks with an attempt each, then a fourth attempt due once they are claimed.
    const { app, sends, claims, comesDue } = fakeApplication(3, (n) => n + 1);
    const worker = workerOf(app, { pollMs: 60_000, maxInFlight: 1, perWebhook: 1 });
    worker.start();
    await pause(20);
    comesDue(3);
    // A pass now finds the slot taken and two attempts waiting for it: it claims nothing.
    worker.wake();
    await pause(20);
    expect([sends.length, claims.length]).toEqual([1, 1]);
    sends[0].record();
    await pause(20);
    sends[1].record();
    await pause(20);
    // Nothing waits now and a slot will free: the fourth attempt was claimed without waiting for a timed pass.
    expect(claims).toHaveLength(2);
    sends[2].record();
    await pause(20);
    expect(sends.map((s) => s.id)).toEqual([0, 1, 2, 3]);
    await drainAndStop(worker, sends);
  });

  it('sends an attempt claimed again while its result waits to be recorded only once', async () => {
    const { app, sends, lapse } = fakeApplication(1, () => 1);
    const worker = workerOf(app);
    worker.start();
    await pause(20);
    sends[0].answer();
    // Its lease lapsed before the result was recorded: a later claim takes it again.
    lapse(0);
    await pause(30);
    expect(sends).toHaveLength(1);
    await drainAndStop(worker, sends);
  });

  it('gives back an attempt still waiting here under the lease of the claim that took it last', async () => {
    const { app, sends, claims, leases, lapse } = fakeApplication(2, () => 1);
    const worker = workerOf(app, { perWebhook: 1, maxWaitMs: 150 });
    worker.start();
    await pause(20);
    // The second attempt waits behind the first; its lease lapses (the process stalled) and a claim takes it again.
    lapse(1);
    await pause(60);
    expect(claims.length).toBeGreaterThan(1);
    await pause(200);
    // Given back once it waited too long, under the later claim's lease (the earlier one is no longer its lease).
    expect(leases.map(({ id }) => id)).toEqual([1]);
    expect(leases[0].claim).toBeGreaterThan(1);
    expect(sends.map((s) => s.id)).toEqual([0]);
    await drainAndStop(worker, sends);
  });

  it('gives back what waits when it stops, and waits only for the attempts out to be recorded', async () => {
    const { app, sends, givenBack } = fakeApplication(3, () => 1);
    const worker = workerOf(app, { perWebhook: 1 });
    worker.start();
    await pause(50);
    expect(sends).toHaveLength(1);
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await pause(20);
    expect([stopped, givenBack.sort()]).toEqual([false, [1, 2]]);
    sends[0].record();
    await stopping;
    expect(sends).toHaveLength(1);
  });
});
