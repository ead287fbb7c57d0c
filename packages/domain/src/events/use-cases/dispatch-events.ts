import { drain } from '../../shared/drain';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import type { StoredEvent } from '../event-feed';

/**
 * What the dispatcher does with a batch of claimed events: database writes only (deliveries to make), in the
 * transaction that claimed them, so the events stop being pending exactly when its writes commit. It must not
 * call out over the network: the transaction stays open while it runs. Throwing rolls the batch back whole.
 */
export type EventHandler<Scope> = (events: readonly StoredEvent[], tx: Scope) => Promise<void>;

/**
 * Hands committed events to `handler`, batch after batch, each claimed, handled and released in one transaction,
 * until the outbox holds no more pending ones. Several instances may run it at once: each claims other events
 * (SKIP LOCKED), so none is handed out twice, and within a batch events come in the order they were recorded
 * (one customer's events in order, unless two instances split them between their batches). The total handled.
 */
export class DispatchEvents<Scope extends Pick<TransactionScope, 'eventFeed'>> {
  constructor(private readonly uow: UnitOfWork<Scope>) {}

  execute(input: { handler: EventHandler<Scope>; batchSize?: number }): Promise<number> {
    const batchSize = input.batchSize ?? 500;
    return drain(batchSize, () =>
      this.uow.run(async (tx) => {
        const events = await tx.eventFeed.claimPending(batchSize);
        if (events.length > 0) await input.handler(events, tx);
        return events.length;
      }),
    );
  }
}
