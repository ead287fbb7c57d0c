import type { Clock } from '../shared/clock';
import type { UnitOfWork } from '../shared/unit-of-work';
import type { TransactionScope } from '../transaction-scope';
import type { HeldKey, StoredResponse } from './idempotency-repository';

/** What every step on a key is given: the keys' repository, in its own transaction or the operation's. */
export type KeyScope = Pick<TransactionScope, 'idempotency'>;

/**
 * A held claim while its operation runs: its expiry is moved on every third of `holdMs`, so a run of any length
 * keeps its key and a crashed holder's key is free within `holdMs`; then the answer is stored, or the key released.
 * Each step is a short transaction of its own. A step that fails goes to `onFault`: the operation's answer (or
 * error) still stands, and a key left held frees itself when its expiry passes.
 */
export class KeyHold {
  private readonly timer: ReturnType<typeof setInterval>;
  /** The renewal in flight: completion and release wait for it, so they name the expiry it committed. */
  private renewing: Promise<void> = Promise.resolve();

  constructor(
    private readonly outside: UnitOfWork<KeyScope>,
    private readonly clock: Clock,
    private hold: HeldKey,
    private readonly holdMs: number,
    private readonly onFault: (error: unknown) => void,
  ) {
    this.timer = setInterval(() => {
      this.renewing = this.renewing.then(() => this.renew());
    }, holdMs / 3);
    // A hold must never keep a process alive that is otherwise done.
    this.timer.unref?.();
  }

  /** Stores the answer under the key; false when it could not be (the hold was lost, or storing it failed). */
  async complete(response: StoredResponse, expiresAt: Date): Promise<boolean> {
    await this.stop();
    return this.step((tx) => tx.idempotency.completeHeld(this.hold, response, expiresAt), false);
  }

  async release(): Promise<void> {
    await this.stop();
    await this.step((tx) => tx.idempotency.releaseHeld(this.hold), undefined);
  }

  private async renew(): Promise<void> {
    const until = new Date(this.clock.now().getTime() + this.holdMs);
    if (await this.step((tx) => tx.idempotency.extendHeld(this.hold, until), false)) this.hold = { ...this.hold, heldUntil: until };
  }

  private async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.renewing;
  }

  private async step<T>(work: (tx: KeyScope) => Promise<T>, onFailure: T): Promise<T> {
    try {
      return await this.outside.run(work);
    } catch (error) {
      this.onFault(error);
      return onFailure;
    }
  }
}
