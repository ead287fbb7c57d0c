import type { Clock } from '../../shared/clock';
import { drain } from '../../shared/drain';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import { calendarDay } from '../calendar-day';

interface ExpireReceivablesInput {
  /** Only this customer's receivables (the sandbox helper); every customer's when absent (the daily job). */
  readonly customerId?: number;
  /** The Buenos Aires calendar day (YYYY-MM-DD) to run as if it were; today there when absent. */
  readonly day?: string;
  readonly batchSize?: number;
}

/** The daily job: PENDING receivables past their due date (a Buenos Aires calendar day) become EXPIRED, in batches. */
export class ExpireReceivables {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'receivables' | 'outbox'>>,
    private readonly clock: Clock,
  ) {}

  execute(input: ExpireReceivablesInput = {}): Promise<number> {
    const { customerId, day = calendarDay(this.clock.now()), batchSize = 500 } = input;
    return drain(batchSize, () =>
      this.uow.run(async (tx) => {
        const now = this.clock.now();
        const expired = (await tx.receivables.dueForExpiry(day, batchSize, customerId)).map((receivable) => receivable.expire(now));
        // One write for the batch: its rows, already locked by the pick, and their counts in one order, as a single
        // change takes them; row by row, a batch took an account's counts after the customer's and deadlocked
        // requests, and held every count it had touched for as long as the batch took.
        await tx.receivables.updateMany(expired);
        await tx.outbox.record(expired.flatMap((receivable) => receivable.events));
        return expired.length;
      }),
    );
  }
}
