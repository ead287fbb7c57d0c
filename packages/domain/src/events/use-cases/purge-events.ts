import type { Clock } from '../../shared/clock';
import { drain } from '../../shared/drain';
import type { UnitOfWork } from '../../shared/unit-of-work';
import type { TransactionScope } from '../../transaction-scope';
import type { PurgePosition } from '../event-feed';

const DAY_MS = 86_400_000;

/** What a purge deleted. */
export interface PurgedEvents {
  readonly events: number;
  /** Finished attempts of test events (webhook.test). */
  readonly testAttempts: number;
  /** Attempts of deleted webhooks, whatever their age. */
  readonly deletedWebhookAttempts: number;
}

/**
 * Deletes events older than the retention window once they were dispatched (EventFeed.purgeDispatched says which),
 * in batches, each its own short transaction, so the outbox stops growing without holding locks for long. An
 * event not yet dispatched is kept whatever its age: purging it would lose it for every webhook. An event's
 * attempts go with it; those of test events, which the outbox never held, go after the same retention. First, the
 * history of the webhooks deleted since the last run, whatever its age (their attempts still PENDING would keep
 * their events).
 */
export class PurgeEvents {
  constructor(
    private readonly uow: UnitOfWork<Pick<TransactionScope, 'eventFeed' | 'webhookDeliveries'>>,
    private readonly clock: Clock,
  ) {}

  async execute(input: { retentionDays: number; batchSize?: number }): Promise<PurgedEvents> {
    const before = new Date(this.clock.now().getTime() - input.retentionDays * DAY_MS);
    const batchSize = input.batchSize ?? 5_000;
    const deletedWebhookAttempts = await drain(batchSize, () => this.uow.run((tx) => tx.webhookDeliveries.purgeOfDeletedWebhooks(batchSize)));
    let purged = 0;
    let after: PurgePosition | undefined;
    do {
      const batch = await this.uow.run((tx) => tx.eventFeed.purgeDispatched(before, after, batchSize));
      purged += batch.purged;
      after = batch.next;
    } while (after !== undefined);
    const testAttempts = await drain(batchSize, () => this.uow.run((tx) => tx.webhookDeliveries.purgeTestAttempts(before, batchSize)));
    return { events: purged, testAttempts, deletedWebhookAttempts };
  }
}
