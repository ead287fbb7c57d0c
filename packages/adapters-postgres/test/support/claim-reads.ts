import type { ClaimedDelivery, DeliveryClaim } from '@rcs/domain';
import type { KnexUnitOfWork } from '../../src/knex-unit-of-work';

/**
 * Makes `claim` and counts the index entries and rows of the attempts and of their webhooks' next-due bounds it
 * read, from its transaction's own statistics: what a claim costs, whatever the machine's speed.
 */
export function readByClaim(uow: KnexUnitOfWork, claim: DeliveryClaim): Promise<{ claimed: ClaimedDelivery[]; read: number }> {
  return uow.begin(async (bound) => {
    const read = async () =>
      Number(
        (
          await bound.executor().raw<{ rows: { n: string }[] }>(
            `SELECT sum(pg_stat_get_xact_tuples_fetched(t.oid)
               + (SELECT COALESCE(sum(pg_stat_get_xact_tuples_returned(indexrelid)), 0) FROM pg_index WHERE indrelid = t.oid)) AS n
             FROM pg_class t WHERE t.oid IN ('webhook_deliveries'::regclass, 'webhook_next_due'::regclass)`,
          )
        ).rows[0].n,
      );
    const before = await read();
    const claimed = await bound.run((tx) => tx.webhookDeliveries.claimDue(claim));
    return { claimed, read: (await read()) - before };
  });
}
