import type { Clock } from '../shared/clock';
import { drain } from '../shared/drain';
import type { UnitOfWork } from '../shared/unit-of-work';
import type { TransactionScope } from '../transaction-scope';

/**
 * Deletes idempotency records past their 24 hours: no replay can ask for them any more, and every write with a
 * key leaves one (with its whole answer), so without this they would pile up for ever.
 */
export class PurgeExpiredIdempotencyKeys {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'idempotency'>>,
    private readonly clock: Clock,
  ) {}

  execute(input: { batchSize: number } = { batchSize: 5_000 }): Promise<number> {
    const now = this.clock.now();
    return drain(input.batchSize, () => this.uow.run((tx) => tx.idempotency.purgeExpired(now, input.batchSize)));
  }
}
