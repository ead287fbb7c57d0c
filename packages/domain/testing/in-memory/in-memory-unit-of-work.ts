import { AsyncLocalStorage } from 'node:async_hooks';
import { RollbackOnlyError, type TransactionScope, type UnitOfWork } from '../../src';
import type { Tables, TablesRef } from './in-memory-tables';
import { inMemoryScope } from './in-memory-scope';

/**
 * Real isolation, so the fake never promises what PostgreSQL would not keep: transactions run one at a time on a
 * copy of the committed tables and replace them only on success. A nested run joins; `isolated` is a savepoint.
 */
export class InMemoryUnitOfWork implements UnitOfWork<TransactionScope> {
  private readonly ambient = new AsyncLocalStorage<TablesRef>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly store: { committed: Tables }) {}

  /** The tables a read sees: the working copy of the transaction open in this async flow, else the committed ones. */
  visibleTables(): Tables {
    return this.open()?.tables ?? this.store.committed;
  }

  run<T>(work: (tx: TransactionScope) => Promise<T>): Promise<T> {
    const outer = this.open();
    if (outer) return this.join(outer, work);
    const turn = this.queue.then(() => this.transaction(work));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  inTransaction(): boolean {
    return this.open() !== undefined;
  }

  private async transaction<T>(work: (tx: TransactionScope) => Promise<T>): Promise<T> {
    const ref: TablesRef = { tables: structuredClone(this.store.committed) };
    try {
      const result = await this.ambient.run(ref, () => work(inMemoryScope(ref)));
      if (ref.rollbackOnly) throw new RollbackOnlyError(ref.rollbackOnly.cause);
      this.store.committed = ref.tables;
      return result;
    } finally {
      ref.ended = true;
    }
  }

  private open(): TablesRef | undefined {
    const ref = this.ambient.getStore();
    return ref && !ref.ended ? ref : undefined;
  }

  private async join<T>(ref: TablesRef, work: (tx: TransactionScope) => Promise<T>): Promise<T> {
    try {
      return await work(inMemoryScope(ref));
    } catch (error) {
      ref.rollbackOnly ??= { cause: error };
      throw error;
    }
  }

  async isolated<T>(work: () => Promise<T>): Promise<T> {
    const ref = this.open();
    if (!ref) return work();
    const before = { tables: structuredClone(ref.tables), rollbackOnly: ref.rollbackOnly };
    try {
      return await work();
    } catch (error) {
      ref.tables = before.tables;
      ref.rollbackOnly = before.rollbackOnly;
      throw error;
    }
  }
}
