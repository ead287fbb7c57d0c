import type { ClaimedDelivery, DeliveryClaim } from '@rcs/domain';
import type { KnexUnitOfWork } from '../../src/knex-unit-of-work';
import { readsOf } from './reads';

/**
 * Makes `claim` and counts the index entries and rows of the attempts and of their webhooks' next-due bounds it
 * read through their indexes: the tests' tables of a few thousand rows are small enough for PostgreSQL to scan the
 * attempts it rechecks by id whole, which it reads by primary key from a large table.
 */
export async function readByClaim(uow: KnexUnitOfWork, claim: DeliveryClaim): Promise<{ claimed: ClaimedDelivery[]; read: number }> {
  const { result, read } = await readsOf(uow, ['webhook_deliveries', 'webhook_next_due'], (bound) => bound.run((tx) => tx.webhookDeliveries.claimDue(claim)), {
    scans: false,
  });
  return { claimed: result, read };
}
