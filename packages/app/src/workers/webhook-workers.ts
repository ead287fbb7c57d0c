import type { Logger } from 'pino';
import type { Application, DeliveryToSend } from '@rcs/domain';
import type { Config } from '../config';
import { PollingWorker } from './polling-worker';

/**
 * Attempts a worker leases per slot it may send on: the claim takes this many rounds of an endpoint's slots at
 * once and queues them here, so a burst costs one claim per few dozen deliveries instead of one per freed slot
 * (a claim was a third of the database's time per delivery). The lease covers the queue: the last round waits for
 * the rounds before it, each bounded by the sender's deadline.
 */
export const PREFETCH_ROUNDS = 4;

/** Attempts one claim takes at most: its scan of the due attempts is a few times this. */
const CLAIM_BATCH = 64;

/** One webhook's attempts held by this worker: being sent, and leased and waiting for a slot. */
interface EndpointQueue {
  sending: number;
  readonly waiting: DeliveryToSend[];
}

/**
 * Sends due webhook attempts without waiting on any one endpoint: at most `perWebhook` attempts of a webhook at
 * once and `maxInFlight` in all, so a slow or hanging receiver holds its own few slots (and the sender's
 * connections to it), never the others'. Leased attempts beyond a webhook's free slots wait in its queue here
 * (PREFETCH_ROUNDS of its slots, and two more rounds at most); held (leased and not yet recorded) are at most PREFETCH_ROUNDS times
 * `maxInFlight`. Instances share the work through the claim's leases (SKIP LOCKED); none sends one attempt twice
 * at once.
 */
export class WebhookDeliveryWorker {
  private readonly endpoints = new Map<number, EndpointQueue>();
  private sending = 0;
  private held = 0;
  private readonly recording = new Set<Promise<void>>();
  private readonly poller: PollingWorker;

  constructor(
    private readonly app: Application,
    private readonly options: { readonly pollMs: number; readonly maxInFlight: number; readonly perWebhook: number },
    private readonly logger: Logger,
  ) {
    this.poller = new PollingWorker('webhook-delivery', options.pollMs, () => this.pass(), logger);
  }

  start(): void {
    this.poller.start();
  }

  /** Claims soon: new attempts were dispatched, or a slot came free. */
  wake(): void {
    this.poller.wake();
  }

  /**
   * Stops claiming and sends what it holds, waiting for every result to be recorded (the sender's deadline bounds
   * each round), so none waits for its lease to lapse.
   */
  async stop(): Promise<void> {
    await this.poller.stop();
    while (this.recording.size > 0) await Promise.all(this.recording);
  }

  private async pass(): Promise<boolean> {
    const room = Math.min(this.options.maxInFlight * PREFETCH_ROUNDS - this.held, CLAIM_BATCH);
    if (room <= 0) return false;
    // A webhook with more than a round of its slots waiting has its next rounds here. One with a round at most is
    // topped up while that round goes out (claimed only once its queue ran dry, a webhook waited for each claim):
    // it holds at most two rounds past PREFETCH_ROUNDS, which the lease allows for.
    const queued = [...this.endpoints].filter(([, queue]) => queue.waiting.length > this.options.perWebhook).map(([id]) => id);
    const claimed = await this.app.webhooks.deliver.claim({ limit: room, perWebhook: this.options.perWebhook * PREFETCH_ROUNDS, skipWebhooks: queued });
    for (const item of claimed) this.queueOf(item.delivery.webhookId).waiting.push(item);
    this.held += claimed.length;
    this.pump();
    return claimed.length === room;
  }

  private queueOf(webhookId: number): EndpointQueue {
    let queue = this.endpoints.get(webhookId);
    if (!queue) this.endpoints.set(webhookId, (queue = { sending: 0, waiting: [] }));
    return queue;
  }

  /** Starts what waits, as far as the slots allow. */
  private pump(): void {
    for (const queue of this.endpoints.values()) {
      while (queue.waiting.length > 0 && queue.sending < this.options.perWebhook && this.sending < this.options.maxInFlight) {
        this.send(queue, queue.waiting.shift()!);
      }
    }
  }

  private send(queue: EndpointQueue, item: DeliveryToSend): void {
    const { webhookId } = item.delivery;
    this.sending += 1;
    queue.sending += 1;
    // The slots come free once the endpoint answered; the attempt stays held until its result is recorded, so the
    // leased and unrecorded attempts stay bounded however far recording lags (past their lease, another worker
    // would send them again).
    let answered = false;
    const slotFree = () => {
      if (answered) return;
      answered = true;
      this.sending -= 1;
      queue.sending -= 1;
      const waited = queue.waiting.length;
      this.pump();
      if (queue.sending === 0 && queue.waiting.length === 0) this.endpoints.delete(webhookId);
      // Down to its last round: more of its attempts may be due, claimed while that round goes out.
      if (waited > this.options.perWebhook && queue.waiting.length <= this.options.perWebhook) this.wake();
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
        // Only a full worker left claims waiting for this one (a pass that had room claimed what was due).
        if (this.held-- >= this.options.maxInFlight * PREFETCH_ROUNDS) this.wake();
      });
    this.recording.add(recorded);
  }
}

/** The dispatcher and the delivery worker of one instance; the dispatcher wakes the worker when it made attempts. */
export function webhookWorkers(app: Application, settings: Config['webhooks'], logger: Logger): { start(): void; stop(): Promise<void> } {
  const { deliveryPollMs, dispatchPollMs, maxConnections, maxConnectionsPerEndpoint } = settings;
  const delivery = new WebhookDeliveryWorker(app, { pollMs: deliveryPollMs, maxInFlight: maxConnections, perWebhook: maxConnectionsPerEndpoint }, logger);
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
