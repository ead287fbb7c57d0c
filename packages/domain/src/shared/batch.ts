import { DomainError } from './domain-error';
import type { UnitOfWork } from './unit-of-work';

export type BatchOutcome<T> = { readonly index: number; readonly value: T } | { readonly index: number; readonly error: DomainError };

/**
 * Runs `perform` on each item as if it had been posted by itself: inside a request's transaction each item is
 * isolated (a savepoint), so a failed item leaves no trace and does not undo the others. An item that arrives as
 * a DomainError (it did not parse) is that item's result.
 */
export async function eachOnItsOwn<I, T>(
  uow: UnitOfWork<unknown>,
  items: ReadonlyArray<I | DomainError>,
  perform: (item: I) => Promise<T>,
): Promise<BatchOutcome<T>[]> {
  const results: BatchOutcome<T>[] = [];
  for (const [index, item] of items.entries()) {
    if (item instanceof DomainError) {
      results.push({ index, error: item });
      continue;
    }
    try {
      results.push({ index, value: await uow.isolated(() => perform(item)) });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      results.push({ index, error });
    }
  }
  return results;
}
