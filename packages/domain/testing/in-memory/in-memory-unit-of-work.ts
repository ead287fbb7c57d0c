import { AsyncLocalStorage } from 'node:async_hooks';
import type { TransactionScope, UnitOfWork } from '../../src';
import type { Tables, TablesRef } from './in-memory-tables';
import { inMemoryScope } from './in-memory-scope';

/**
 * Real isolation, so the fake never promises what PostgreSQL would not keep: transactions run one at a time on a
 * copy of the committed tables and replace them only on success. A nested run is a savepoint.
 */
export class InMemoryUnitOfWork implements UnitOfWork {
  private readonly ambient = new AsyncLocalStorage<TablesRef>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly store: { committed: Tables }) {}

  /** The tables a read sees: the working copy of the transaction open in this async flow, else the committed ones. */
  visibleTables(): Tables {
    return this.open()?.tables ?? this.store.committed;
  }

  run<T>(work: (tx: TransactionScope) => Promise<T>): Promise<T> {
    const outer = this.open();
    if (outer) return this.savepoint(outer, work);
    const turn = this.queue.then(() => this.transaction(work));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async transaction<T>(work: (tx: TransactionScope) => Promise<T>): Promise<T> {
    const ref: TablesRef = { tables: structuredClone(this.store.committed) };
    try {
      const result = await this.ambient.run(ref, () => work(inMemoryScope(ref)));
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

  private async savepoint<T>(ref: TablesRef, work: (tx: TransactionScope) => Promise<T>): Promise<T> {
    const before = structuredClone(ref.tables);
    try {
      return await work(inMemoryScope(ref));
    } catch (error) {
      ref.tables = before;
      throw error;
    }
  }
}
