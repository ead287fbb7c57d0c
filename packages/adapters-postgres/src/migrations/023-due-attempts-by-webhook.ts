import type { Knex } from 'knex';

/**
 * The claim reads due attempts webhook by webhook: one index entry per webhook finds the next webhook and its
 * oldest due time, then its own attempts in due order, so the attempts of a webhook the worker skips (its queue
 * full) or of one behind another's backlog are never walked. Held attempts (no due time) are left out of the index:
 * a paused webhook's backlog costs a claim nothing. The id breaks ties in the order the claim reads. The old due
 * index goes in the same step: instances still running the claim before this one would scan the table for each
 * claim, so all instances are to be on this version together (as every migration here assumes).
 */
const DUE = 'COALESCE(claimed_until, next_attempt_at)';

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX webhook_deliveries_due_by_webhook ON webhook_deliveries (webhook_id, (${DUE}), id)
      WHERE status = 'PENDING' AND ${DUE} IS NOT NULL;
    DROP INDEX webhook_deliveries_due;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX webhook_deliveries_due ON webhook_deliveries (${DUE}) WHERE status = 'PENDING';
    DROP INDEX webhook_deliveries_due_by_webhook;
  `);
}
