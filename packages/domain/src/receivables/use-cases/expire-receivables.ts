import type { Clock } from '../../shared/clock';
import { drain } from '../../shared/drain';
import type { UnitOfWork } from '../../shared/unit-of-work';
import { calendarDay } from '../calendar-day';
import { store } from './change-receivable-status';

/** The daily job: PENDING receivables past their due date (a Buenos Aires calendar day) become EXPIRED, in batches. */
export class ExpireReceivables {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  execute(input: { batchSize: number } = { batchSize: 500 }): Promise<number> {
    const today = calendarDay(this.clock.now());
    return drain(input.batchSize, () =>
      this.uow.run(async (tx) => {
        const due = await tx.receivables.dueForExpiry(today, input.batchSize);
        for (const receivable of due) await store(tx, receivable.expire(this.clock.now()));
        return due.length;
      }),
    );
  }
}
