/**
 * The transaction boundary over `Scope`, what one transaction can reach (its repositories and outbox, which share
 * its fate). Each use case asks for the slice it uses, so its reach shows in its signature; the application hands
 * every one the full scope (`TransactionScope`). `run` commits when `work` resolves and rolls everything back
 * when it throws.
 *
 * A `run` started inside another one (same async flow) joins that transaction: no savepoint, so no extra round
 * trips on the hot path. If the joined work throws, the transaction becomes rollback-only: it can no longer
 * commit, even if the outer work catches the error, so a failed step never leaves half its writes behind.
 * Work that must survive its own failure (a batch item) asks for `isolated`.
 */
export interface UnitOfWork<out Scope> {
  run<T>(work: (tx: Scope) => Promise<T>): Promise<T>;
  /**
   * Runs `work` so that its failure undoes only its own writes and leaves the open transaction usable (a
   * savepoint); with no transaction open, `work` runs as it is (its own `run`s are then transactions). A write
   * that an adapter sends without waiting (an event) and that fails once `work` has resolved is a fault, not the
   * work's answer: it fails the whole transaction, which then cannot commit.
   */
  isolated<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Whether a transaction is open in this async flow, so a `run` would join it. Work that runs `run`s side by side
   * asks first: joined, they share one transaction, whose own row locks neither block nor skip each other.
   */
  inTransaction(): boolean;
}

/** Thrown by the outermost `run` when joined work failed and the transaction was marked rollback-only. */
export class RollbackOnlyError extends Error {
  constructor(cause: unknown) {
    super('the transaction is rollback-only: work joined to it failed, so it was rolled back', { cause });
  }
}
