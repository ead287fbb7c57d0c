import type { Knex } from 'knex';
import { scopeKeptSql, scopeRemovedWithSql } from './counted-lists';

/**
 * A deleted webhook's attempts' counts (migration 018's scope 'webhook', up to 8 slots per status) go with it:
 * its cascade took them to 0 and left the rows behind, so list_counts only ever grew.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(scopeRemovedWithSql('webhook_deliveries', 'webhook', 'webhooks'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(scopeKeptSql('webhook_deliveries', 'webhooks'));
}
