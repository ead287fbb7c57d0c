import type { Knex } from 'knex';

/**
 * An attempt's created_at no longer moves to when its send began (an attempt held while its webhook was paused jumped
 * to the head of the history when made, so a reader walking the history by its Link cursor never saw it): that time
 * has a column of its own. The attempts already made had it in created_at; those ended unsent (expired, or lost with
 * their sender) had none.
 */
export async function up(knex: Knex): Promise<void> {
  // The reasons' words as written when this ran (LOST_ATTEMPT, EXPIRED_REASON), not imported: a migration stays as it ran.
  await knex.raw(`
    ALTER TABLE webhook_deliveries ADD COLUMN attempted_at TIMESTAMPTZ;
    UPDATE webhook_deliveries SET attempted_at = created_at
    WHERE status <> 'PENDING' AND COALESCE(failure_reason, '') NOT LIKE 'no answer recorded:%' AND COALESCE(failure_reason, '') NOT LIKE 'expired:%';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE webhook_deliveries DROP COLUMN attempted_at');
}
