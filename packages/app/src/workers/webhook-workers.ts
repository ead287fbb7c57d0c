import type { Logger } from 'pino';
import type { Application, DeliveryToSend, WebhookShare } from '@rcs/domain';
import type { Config } from '../config';
import { CustomerShares } from './customer-shares';
import { PollingWorker } from './polling-worker';
import { SlowEndpoints } from './slow-endpoints';

/**
 * Attempts a worker leases per slot it may send on: the claim takes up to this many rounds of an endpoint's slots
 * at once and queues them here, so a burst costs one claim per few dozen deliveries instead of one per freed slot
 * (a claim was a third of the database's time per delivery). Fewer for an endpoint slower to answer (shareOf).
 */
export const PREFETCH_ROUNDS = 4;

/**
 * How long a leased attempt may wait here for a slot. Past it the attempt is given back, due again, for a claim
 * that reads its webhook afresh: an attempt goes to the sender at most this long after its webhook was last read as
 * ACTIVE at that URL and secret (paused, deleted or re-pointed meanwhile, it is not sent; the sender's connections
 * to a host may hold it further, within its deadline), and a hanging endpoint's queue does not sit on attempts. The
 * lease covers this wait and the sender's deadline.
 */
export const MAX_WAIT_MS = 1_000;

/** Attempts one claim takes at most: its scan of the due attempts is a few times this. */
const CLAIM_BATCH = 64;

interface Queued {
  readonly item: DeliveryToSend;
  /** When the claim that leased it started (performance.now()). */
  readonly claimedAt: number;
}

/** One webhook's attempts held by this worker: being sent, and leased and waiting for a slot. */
interface EndpointQueue {
  readonly customerId: number;
  sending: number;
  /** In the order they were claimed. */
  readonly waiting: Queued[];
  /**
   * Attempts of it waited too long and went back: claims pass it by until its queue ran dry and a slot came free,
   * so a slow endpoint is not claimed for only to give its attempts back again and again.
   */
  stalled: boolean;
}

/**
 * Sends due webhook attempts without waiting on any one endpoint: at most `perWebhook` attempts of a webhook at
 * once, `perCustomer` of one customer's webhooks together and `maxInFlight` in all, so a slow or hanging receiver
 * holds its own few slots (and the sender's connections to it), never the others', and a customer with many such
 * receivers holds its share of the slots, not every one; when all slots are taken, a freed one goes to the webhooks
 * in turn.
 * Leased attempts beyond a webhook's free slots wait in its queue here, `maxWaitMs` at most. Held (leased and not
 * yet recorded) are at most PREFETCH_ROUNDS times `maxInFlight`. Instances share the work through the claim's
 * leases (SKIP LOCKED); none sends one attempt twice at once.
 */
export class WebhookDeliveryWorker {
  private readonly endpoints = new Map<number, EndpointQueue>();
  /** Endpoints too slow for PREFETCH_ROUNDS rounds within maxWaitMs: claimed for fewer (shareOf). */
  private readonly slow: SlowEndpoints;
  /** Ids of the attempts leased and not yet recorded. */
  private readonly held = new Set<number>();
  private sending = 0;
  private waiting = 0;
  private readonly customers: CustomerShares;
  /** A pass found every slot taken and attempts waiting: the next freed slot claims. */
  private declined = false;
  /** Results being recorded and attempts being given back: stop waits for both. */
  private readonly recording = new Set<Promise<void>>();
  private readonly poller: PollingWorker;

  constructor(
    private readonly app: Application,
    private readonly options: {
      readonly pollMs: number;
      readonly maxInFlight: number;
      readonly perWebhook: number;
      readonly perCustomer: number;
      readonly maxWaitMs: number;
    },
    private readonly logger: Logger,
  ) {
    this.slow = new SlowEndpoints(options.maxWaitMs, PREFETCH_ROUNDS);
    this.customers = new CustomerShares(options.perCustomer, PREFETCH_ROUNDS);
    this.poller = new PollingWorker('webhook-delivery', options.pollMs, () => this.pass(), logger);
  }

  start(): void {
    this.poller.start();
  }

  /** Claims soon: new attempts were dispatched, or room came free. */
  wake(): void {
    this.poller.wake();
  }

  /**
   * Stops claiming, gives back the attempts waiting here (due again at once, for another instance or the next
   * start) and waits for those being sent to be recorded (the sender's deadline bounds that).
   */
  async stop(): Promise<void> {
    await this.poller.stop();
    this.giveBack([...this.endpoints].flatMap(([webhookId, queue]) => this.take(webhookId, queue, queue.waiting.length)));
    while (this.recording.size > 0) await Promise.all(this.recording);
  }

  private async pass(): Promise<boolean> {
    this.giveBackStale();
    // Every slot taken and attempts waiting for one: a claim would only make more wait (and go stale).
    if (this.sending >= this.options.maxInFlight && this.waiting > 0) {
      this.declined = true;
      return false;
    }
    const room = Math.min(this.options.maxInFlight * PREFETCH_ROUNDS - this.held.size, CLAIM_BATCH);
    if (room <= 0) return false;
    // A webhook with more than a round of its slots waiting has its next rounds here. One with a round at most is
    // topped up while that round goes out (claimed only once its queue ran dry, a webhook waited for each claim),
    // up to the rounds it answers in time.
    const perWebhook = this.options.perWebhook * PREFETCH_ROUNDS;
    const skipWebhooks: number[] = [];
    const shares: WebhookShare[] = [];
    for (const webhookId of new Set([...this.endpoints.keys(), ...this.slow.webhookIds()])) {
      this.forgetIfIdle(webhookId, this.endpoints.get(webhookId));
      const queue = this.endpoints.get(webhookId);
      const share = this.shareOf(webhookId, queue);
      const passedBy = queue && (queue.stalled || queue.waiting.length > this.options.perWebhook || this.customers.served(queue.customerId));
      if (passedBy || share <= 0) skipWebhooks.push(webhookId);
      else if (share < perWebhook) shares.push({ webhookId, perWebhook: share });
    }
    const claimedAt = performance.now();
    const claimed = await this.app.webhooks.deliver.claim({ limit: room, perWebhook, skipWebhooks, shares, held: this.held });
    // A webhook of a customer already served is not known to be one until claimed: its attempts go back at once (its
    // idle queue then has the next claims pass it by), rather than hold room other customers' attempts need.
    const over: DeliveryToSend[] = [];
    for (const item of claimed) {
      // Its lease lapsed while its result waited to be recorded, and this claim took it again, as one this worker
      // holds (not lost): that send counts. Still waiting here (the process stalled past its lease), it keeps its
      // place under the new lease.
      if (this.held.has(item.delivery.id)) {
        const queue = this.endpoints.get(item.delivery.webhookId)?.waiting;
        const at = queue?.findIndex((queued) => queued.item.delivery.id === item.delivery.id) ?? -1;
        if (queue && at >= 0) queue[at] = { ...queue[at], item };
        continue;
      }
      const queue = this.queueOf(item.delivery);
      if (this.customers.served(queue.customerId)) {
        over.push(item);
        continue;
      }
      this.held.add(item.delivery.id);
      queue.waiting.push({ item, claimedAt });
      this.countWaiting(queue.customerId, 1);
    }
    this.pump();
    this.giveBack(over);
    return claimed.length === room;
  }

  private queueOf({ webhookId, customerId }: DeliveryToSend['delivery']): EndpointQueue {
    let queue = this.endpoints.get(webhookId);
    if (!queue) this.endpoints.set(webhookId, (queue = { customerId, sending: 0, waiting: [], stalled: false }));
    return queue;
  }

  private countWaiting(customerId: number, added: number): void {
    this.waiting += added;
    this.customers.countWaiting(customerId, added);
  }

  /**
   * Attempts of a webhook a claim may add to its queue here, so that none waits past maxWaitMs: what its free slots
   * start at once, and a round of its slots for each time its endpoint answers within maxWaitMs, less what waits
   * already; PREFETCH_ROUNDS rounds at most. An endpoint slower than maxWaitMs gets its free slots' worth alone.
   */
  private shareOf(webhookId: number, queue: EndpointQueue | undefined): number {
    const { perWebhook } = this.options;
    const free = perWebhook - (queue?.sending ?? 0);
    return Math.min(free + perWebhook * this.slow.roundsOf(webhookId), perWebhook * PREFETCH_ROUNDS) - (queue?.waiting.length ?? 0);
  }

  /**
   * Starts what waits, as far as the slots allow, one attempt of a webhook at a time, each served webhook going to
   * the back of the line: under the total cap, the first webhooks held would otherwise take every freed slot.
   */
  private pump(): void {
    const now = performance.now();
    const stale: DeliveryToSend[] = [];
    for (const [webhookId, queue] of this.endpoints) {
      if (this.sending >= this.options.maxInFlight) break;
      if (queue.sending >= this.options.perWebhook || this.customers.full(queue.customerId)) continue;
      stale.push(...this.takeStale(webhookId, queue, now));
      const next = queue.waiting.shift();
      if (!next) continue;
      this.countWaiting(queue.customerId, -1);
      this.send(webhookId, queue, next.item);
      this.endpoints.delete(webhookId);
      this.endpoints.set(webhookId, queue);
    }
    this.giveBack(stale);
  }

  /** Removes the queue's first attempts that have waited past maxWaitMs, to be given back. */
  private takeStale(webhookId: number, queue: EndpointQueue, now: number): DeliveryToSend[] {
    const fresh = queue.waiting.findIndex((queued) => now - queued.claimedAt <= this.options.maxWaitMs);
    return this.take(webhookId, queue, fresh === -1 ? queue.waiting.length : fresh);
  }

  /** Removes the first `count` waiting attempts of a webhook, to be given back. */
  private take(webhookId: number, queue: EndpointQueue, count: number): DeliveryToSend[] {
    if (count === 0) return [];
    const taken = queue.waiting.splice(0, count).map((queued) => queued.item);
    this.countWaiting(queue.customerId, -taken.length);
    queue.stalled = true;
    this.forgetIfIdle(webhookId, queue);
    return taken;
  }

  /**
   * A webhook with nothing out and nothing waiting here needs no queue, unless its customer is served: kept, claims
   * pass it by (else each would lease its attempts only to give them back), until a pass finds the customer's share
   * free again.
   */
  private forgetIfIdle(webhookId: number, queue: EndpointQueue | undefined): void {
    if (queue && queue.sending === 0 && queue.waiting.length === 0 && !this.customers.served(queue.customerId)) this.endpoints.delete(webhookId);
  }

  /** Gives back what waited too long in every queue, those whose slots are all taken included. */
  private giveBackStale(): void {
    const now = performance.now();
    this.giveBack([...this.endpoints].flatMap(([webhookId, queue]) => this.takeStale(webhookId, queue, now)));
  }

  private giveBack(attempts: readonly DeliveryToSend[]): void {
    if (attempts.length === 0) return;
    for (const { delivery } of attempts) this.held.delete(delivery.id);
    // Room came free for a claim.
    this.wake();
    const givenBack: Promise<void> = this.app.webhooks.deliver
      .giveBack(attempts)
      // Not given back (the database went away), they are due again once their lease lapses.
      .catch((err: unknown) => this.logger.error({ err, worker: 'webhook-delivery', attempts: attempts.length }, 'giving back webhook attempts failed'))
      .finally(() => this.recording.delete(givenBack));
    this.recording.add(givenBack);
  }

  private send(webhookId: number, queue: EndpointQueue, item: DeliveryToSend): void {
    this.sending += 1;
    queue.sending += 1;
    this.customers.countSending(queue.customerId, 1);
    // The slots come free once the endpoint answered; the attempt stays held until its result is recorded, so the
    // leased and unrecorded attempts stay bounded however far recording lags (past their lease, another worker
    // would send them again).
    let answered = false;
    const startedAt = performance.now();
    const slotFree = () => {
      if (answered) return;
      answered = true;
      this.slow.answered(webhookId, performance.now() - startedAt);
      this.sending -= 1;
      queue.sending -= 1;
      // Its webhooks were passed by while it was served: claimed for again now.
      const customerWasServed = this.customers.served(queue.customerId);
      this.customers.countSending(queue.customerId, -1);
      const waited = queue.waiting.length;
      this.pump();
      // Down to its last round: more of its attempts may be due, claimed while that round goes out. Passed by since
      // some of its attempts went back, or slow and claimed for no more than its slots start, it has a slot again.
      const dry = queue.waiting.length === 0;
      const claimFor =
        (waited > this.options.perWebhook && queue.waiting.length <= this.options.perWebhook) || (dry && (queue.stalled || this.slow.has(webhookId)));
      if (dry) queue.stalled = false;
      this.forgetIfIdle(webhookId, queue);
      if (claimFor || customerWasServed || this.declined) {
        this.declined = false;
        this.wake();
      }
    };
    const recorded: Promise<void> = this.app.webhooks.deliver
      .send(item, slotFree)
      .then(
        () => undefined,
        // Recording failed (the database went away): the lease lapses and the attempt is sent again, same webhook-id.
        (err: unknown) => this.logger.error({ err, worker: 'webhook-delivery', deliveryId: item.delivery.id }, 'recording a webhook attempt failed'),
      )
      .finally(() => {
        slotFree();
        this.recording.delete(recorded);
        const full = this.held.size >= this.options.maxInFlight * PREFETCH_ROUNDS;
        this.held.delete(item.delivery.id);
        // Only a full worker left claims waiting for this one (a pass that had room claimed what was due).
        if (full) this.wake();
      });
    this.recording.add(recorded);
  }
}

/** The dispatcher and the delivery worker of one instance; the dispatcher wakes the worker when it made attempts. */
export function webhookWorkers(app: Application, settings: Config['webhooks'], logger: Logger): { start(): void; stop(): Promise<void> } {
  const { deliveryPollMs, dispatchPollMs, maxConnections, maxConnectionsPerEndpoint, maxConnectionsPerCustomer } = settings;
  const delivery = new WebhookDeliveryWorker(
    app,
    {
      pollMs: deliveryPollMs,
      maxInFlight: maxConnections,
      perWebhook: maxConnectionsPerEndpoint,
      perCustomer: maxConnectionsPerCustomer,
      maxWaitMs: MAX_WAIT_MS,
    },
    logger,
  );
  const dispatcher = new PollingWorker(
    'webhook-dispatch',
    dispatchPollMs,
    async () => {
      const events = await app.webhooks.dispatch.execute();
      if (events > 0) delivery.wake();
      // The dispatch drained every pending event already.
      return false;
    },
    logger,
  );
  return {
    start() {
      dispatcher.start();
      delivery.start();
    },
    async stop() {
      await dispatcher.stop();
      await delivery.stop();
    },
  };
}
