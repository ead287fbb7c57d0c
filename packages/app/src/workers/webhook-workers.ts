import type { Logger } from 'pino';
import type { Application, DeliveryToSend } from '@rcs/domain';
import type { Config } from '../config';
import { PollingWorker } from './polling-worker';

/**
 * Sends due webhook attempts without waiting on any one endpoint: each claimed attempt is sent on its own, and the
 * next claim skips the webhooks this worker already sends `perWebhook` attempts to, so a slow or hanging receiver
 * holds its own few slots (and the sender's connections to it), never the others'. At most `maxInFlight` in all,
 * counting the attempts answered whose results are not recorded yet.
 * Instances share the work through the claim's leases (SKIP LOCKED); none sends one attempt twice at once.
 */
export class WebhookDeliveryWorker {
  private readonly inFlight = new Map<number, number>();
  private total = 0;
  private readonly sending = new Set<Promise<void>>();
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

  /** Stops claiming and waits for the attempts being sent (the sender's deadline bounds them) to be recorded. */
  async stop(): Promise<void> {
    await this.poller.stop();
    await Promise.all(this.sending);
  }

  private async pass(): Promise<boolean> {
    const free = this.options.maxInFlight - this.total;
    if (free <= 0) return false;
    const busy = [...this.inFlight].filter(([, count]) => count >= this.options.perWebhook).map(([id]) => id);
    const claimed = await this.app.webhooks.deliver.claim({ limit: free, perWebhook: this.options.perWebhook, skipWebhooks: busy });
    for (const item of claimed) this.send(item);
    return claimed.length === free;
  }

  private send(item: DeliveryToSend): void {
    const { webhookId } = item.delivery;
    this.total += 1;
    this.inFlight.set(webhookId, (this.inFlight.get(webhookId) ?? 0) + 1);
    // The endpoint's slot comes free once it answered; the worker's only once the result is recorded, so the
    // attempts leased and not yet recorded stay within maxInFlight however far recording lags (past their lease,
    // another worker would send them again).
    let answered = false;
    const endpointFree = () => {
      if (answered) return;
      answered = true;
      const left = (this.inFlight.get(webhookId) ?? 1) - 1;
      if (left > 0) this.inFlight.set(webhookId, left);
      else this.inFlight.delete(webhookId);
      this.poller.wake();
    };
    const sent: Promise<void> = this.app.webhooks.deliver
      .send(item, endpointFree)
      .then(
        () => undefined,
        // Recording failed (the database went away): the lease lapses and the attempt is sent again, same webhook-id.
        (err: unknown) => this.logger.error({ err, worker: 'webhook-delivery', deliveryId: item.delivery.id }, 'recording a webhook attempt failed'),
      )
      .finally(() => {
        endpointFree();
        this.sending.delete(sent);
        // Only a full worker left claims waiting for this slot (a pass that found one free claimed what was due).
        if (this.total-- >= this.options.maxInFlight) this.poller.wake();
      });
    this.sending.add(sent);
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
