import { TransactionConflictError } from './domain-error';
import type { UnitOfWork } from './unit-of-work';

/** Attempts at work that lost a race with a concurrent writer; the last loss is the caller's to retry (409). */
const ATTEMPTS = 3;

/**
 * Runs `attempt` isolated, so that a lost race undoes only its own writes and leaves the request's transaction
 * usable, and again while it loses one: chosen as a deadlock's victim, or met what `lost` recognises (a row a
 * concurrent writer committed after the attempt checked for it). The next attempt sees what the winner stored.
 */
export async function retryingLostRaces<T>(
  uow: Pick<UnitOfWork<unknown>, 'isolated'>,
  attempt: () => Promise<T>,
  lost: (error: unknown) => boolean = () => false,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await uow.isolated(attempt);
    } catch (error) {
      if (!(error instanceof TransactionConflictError || lost(error))) throw error;
      if (n === ATTEMPTS) throw new TransactionConflictError();
    }
  }
}
