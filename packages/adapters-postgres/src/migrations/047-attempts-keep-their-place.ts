import type { Knex } from 'knex';

/**
 * An attempt's created_at no longer moves to when its send began (an attempt held while its webhook was paused jumped
 * to the head of the history when made, so a reader walking the history by its Link cursor never saw it): that time
 * has a column of its own. Left null for the attempts made before it, whose created_at says when they were sent:
 * filling it in would rewrite every row of the history (and fire its count trigger) while writers wait.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE webhook_deliveries ADD COLUMN attempted_at TIMESTAMPTZ');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE webhook_deliveries DROP COLUMN attempted_at');
}
