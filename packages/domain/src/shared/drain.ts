/** Runs `batch`, each in its own transaction, until one does fewer than `batchSize` items; the total done. */
export async function drain(batchSize: number, batch: () => Promise<number>): Promise<number> {
  let done = 0;
  for (;;) {
    const count = await batch();
    done += count;
    if (count < batchSize) return done;
  }
}
