import type { ClaimedDelivery, DeliveryClaim } from '@rcs/domain';
import type { KnexUnitOfWork } from '../../src/knex-unit-of-work';
import { readBy } from './reads';

/** Makes `claim` and counts the index entries of the attempts and of their webhooks' next-due bounds it read, and the rows they led to. */
export async function readByClaim(uow: KnexUnitOfWork, claim: DeliveryClaim): Promise<{ claimed: ClaimedDelivery[]; read: number }> {
  const { result, read } = await readBy(uow, ['webhook_deliveries', 'webhook_next_due'], (bound) => bound.run((tx) => tx.webhookDeliveries.claimDue(claim)));
  return { claimed: result, read };
}
