/**
 * The transaction boundary over `Scope`, what one transaction can reach (its repositories and outbox, which share
 * its fate). Each use case asks for the slice it uses, so its reach shows in its signature; the application hands
 * every one the full scope (`TransactionScope`). `run` commits when `work` resolves and rolls everything back
 * when it throws.
 *
 * A unit of work is free or bound, and nothing about it travels with the async flow: whoever must join a
 * transaction is handed the unit of work bound to it (the storage's `begin`). A free one's `run` is a transaction
 * of its own. A bound one's `run` joins its transaction: no savepoint, so no extra round trips on the hot path. If
 * the joined work throws, the transaction becomes rollback-only: it can no longer commit, even if the outer work
 * catches the error, so a failed step never leaves half its writes behind. Work that must survive its own failure
 * (a batch item) asks for `isolated`.
 */
export interface UnitOfWork<out Scope> {
  run<T>(work: (tx: Scope) => Promise<T>): Promise<T>;
  /**
   * Runs `work` so that its failure undoes only its own writes and leaves the bound transaction usable (a
   * savepoint, in which this unit of work's runs take place until `work` settles; isolated work nests but never
   * runs side by side on one transaction); on a free unit of work, `work` runs as it is (its own `run`s are then
   * transactions). A write that an adapter sends without waiting (an event) and that fails once `work` has
   * resolved is a fault, not the work's answer: it fails the whole transaction, which then cannot commit.
   */
  isolated<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Whether this unit of work is bound to an open transaction, so its `run`s join it. Work that runs `run`s side
   * by side asks first: joined, they share one transaction, whose own row locks neither block nor skip each other.
   */
  inTransaction(): boolean;
  /**
   * Hands `work` a unit of work bound to one transaction: a free one opens it (committed when `work` resolves), a
   * bound one hands itself. For a use case whose own steps must join its transaction (a savepoint within it).
   */
  begin<T>(work: (bound: UnitOfWork<Scope>) => Promise<T>): Promise<T>;
  /**
   * Runs `effect` once what this unit of work wrote is committed: at once on a free one (each of its runs has
   * committed when it resolves), when its transaction commits on a bound one, and never if that rolls back. For
   * telling the world outside about a change (waking a worker) only when the change is there to be seen.
   */
  afterCommit(effect: () => void): void;
}

/**
 * What a free unit of work does the same on any storage: each run is a transaction `begin` opens, nothing is
 * isolated or joined, and what waits for a commit runs at once (each run has committed when it resolves).
 */
export abstract class FreeUnitOfWork<Scope> implements UnitOfWork<Scope> {
  abstract begin<T>(work: (bound: UnitOfWork<Scope>) => Promise<T>): Promise<T>;

  run<T>(work: (tx: Scope) => Promise<T>): Promise<T> {
    return this.begin((bound) => bound.run(work));
  }

  isolated<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  inTransaction(): boolean {
    return false;
  }

  afterCommit(effect: () => void): void {
    effect();
  }
}

/** Thrown by the transaction's end when joined work failed and the transaction was marked rollback-only. */
export class RollbackOnlyError extends Error {
  constructor(cause: unknown) {
    super('the transaction is rollback-only: work joined to it failed, so it was rolled back', { cause });
  }
}

/** Thrown by a bound unit of work asked to run after its transaction ended (work that outlived it kept it). */
export class TransactionEndedError extends Error {
  constructor() {
    super('this unit of work is bound to a transaction that has ended: work that outlives it needs a free one');
  }
}
