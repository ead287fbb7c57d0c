interface Waiting<T> {
  readonly item: T;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Writes items in batches without making any wait for a batch to fill: the first item is written at once, and
 * those that arrive while a write runs go together in the next one (a group commit), up to `maxBatch`. `add`
 * resolves once its item is written. A batch that fails is written again item by item, so one item's fault
 * rejects only its own caller.
 */
export class GroupCommit<T> {
  private queue: Waiting<T>[] = [];
  private writing = false;

  constructor(
    private readonly write: (items: readonly T[]) => Promise<void>,
    private readonly maxBatch: number,
  ) {}

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        await this.write(batch.map((waiting) => waiting.item));
        for (const waiting of batch) waiting.resolve();
      } catch (error) {
        if (batch.length === 1) batch[0].reject(error);
        else for (const waiting of batch) await this.write([waiting.item]).then(waiting.resolve, waiting.reject);
      }
    }
    this.writing = false;
  }
}
