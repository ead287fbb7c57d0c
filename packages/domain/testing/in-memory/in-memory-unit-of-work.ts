import { FreeUnitOfWork, RollbackOnlyError, TransactionEndedError, type TransactionScope, type UnitOfWork } from '../../src';
import { copyTables, type Tables, type TablesRef, type TablesSource } from './in-memory-tables';
import { inMemoryScope } from './in-memory-scope';

/**
 * Real isolation, so the fake never promises what PostgreSQL would not keep: transactions run one at a time on a
 * copy of the committed tables and replace them only on success. Free: each `run` is a transaction of its own and
 * reads see committed tables; `begin` hands a unit of work bound to one transaction, as PostgreSQL's does.
 */
export class InMemoryUnitOfWork extends FreeUnitOfWork<TransactionScope> implements TablesSource {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly store: { committed: Tables }) {
    super();
  }

  visibleTables(): Tables {
    return this.store.committed;
  }

  begin<T>(work: (bound: BoundInMemoryUnitOfWork) => Promise<T>): Promise<T> {
    const turn = this.queue.then(() => this.transaction(work));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async transaction<T>(work: (bound: BoundInMemoryUnitOfWork) => Promise<T>): Promise<T> {
    const ref: TablesRef = { tables: copyTables(this.store.committed) };
    const effects: Array<() => void> = [];
    try {
      const result = await work(new BoundInMemoryUnitOfWork(ref, effects));
      if (ref.rollbackOnly) throw new RollbackOnlyError(ref.rollbackOnly.cause);
      this.store.committed = ref.tables;
      for (const effect of effects) effect();
      return result;
    } finally {
      ref.ended = true;
    }
  }
}

/** Bound to one transaction's working copy: runs join it, reads see it, `isolated` is a savepoint. */
export class BoundInMemoryUnitOfWork implements UnitOfWork<TransactionScope>, TablesSource {
  constructor(
    private readonly ref: TablesRef,
    private readonly effects: Array<() => void>,
  ) {}

  visibleTables(): Tables {
    return this.open().tables;
  }

  async run<T>(work: (tx: TransactionScope) => Promise<T>): Promise<T> {
    const ref = this.open();
    try {
      return await work(inMemoryScope(ref));
    } catch (error) {
      ref.rollbackOnly ??= { cause: error };
      throw error;
    }
  }

  /** As PostgreSQL's savepoint: joined work that failed in it fails it alone, even when `work` carried on. */
  async isolated<T>(work: () => Promise<T>): Promise<T> {
    const ref = this.open();
    const before = { tables: copyTables(ref.tables), rollbackOnly: ref.rollbackOnly };
    ref.rollbackOnly = undefined;
    try {
      const result = await work();
      // Set, meanwhile, by joined work that failed.
      const failed = ref.rollbackOnly as TablesRef['rollbackOnly'];
      if (failed) throw new RollbackOnlyError(failed.cause);
      ref.rollbackOnly = before.rollbackOnly;
      return result;
    } catch (error) {
      ref.tables = before.tables;
      ref.rollbackOnly = before.rollbackOnly;
      throw error;
    }
  }

  inTransaction(): boolean {
    return true;
  }

  afterCommit(effect: () => void): void {
    this.effects.push(effect);
  }

  begin<T>(work: (bound: BoundInMemoryUnitOfWork) => Promise<T>): Promise<T> {
    return work(this);
  }

  private open(): TablesRef {
    if (this.ref.ended) throw new TransactionEndedError();
    return this.ref;
  }
}
