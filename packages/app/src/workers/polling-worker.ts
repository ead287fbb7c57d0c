import { AsyncResource } from 'node:async_hooks';
import type { Logger } from 'pino';

/**
 * Runs `pass` every `intervalMs`, never two at once in this process; `wake` runs it soon instead of at the next
 * tick, or right after the pass running when it is called. A pass that filled its batch runs again at once. Several instances may run the same worker: passes claim
 * their rows in the database (SKIP LOCKED and leases), so they share the work instead of repeating it.
 */
export class PollingWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  /** A wake that came while a pass ran: what it announced may have come too late for that pass to see. */
  private wokenWhileRunning = false;
  /**
   * Passes run in the async context the worker was created in. wake() is called from inside requests, and a
   * timer set there would otherwise carry that request's async context (an embedder's tracing span or log
   * context in AsyncLocalStorage) into every pass it starts, as if the pass were part of the request.
   */
  private readonly runTick = AsyncResource.bind(() => void this.tick());

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    /** Returns true when there may be more work right away. */
    private readonly pass: () => Promise<boolean>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) this.wokenWhileRunning = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(this.runTick, delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.running) return;
    let more = false;
    this.wokenWhileRunning = false;
    this.running = this.pass().then(
      (result) => {
        more = result;
      },
      (error) => this.logger.error({ err: error, worker: this.name }, 'worker pass failed'),
    );
    await this.running;
    this.running = undefined;
    if (!this.stopped) this.schedule(more || this.wokenWhileRunning ? 0 : this.intervalMs);
  }
}
