import type { Knex } from 'knex';
import { countedListSql, uncountedListSql, type CountedTable } from './counted-lists';

/**
 * Maintained counts (counted-lists.ts, as migration 013 keeps them for receivables) for the lists added since,
 * each unfiltered and by the one filter it is most read with:
 * - transfers of the customer, with or without `status` (the lifecycle an operator watches: PENDING_APPROVAL
 *   waiting for a second person, FAILED to look into; externalId matches one transfer, type and sourceAccountId
 *   split the list in two or three);
 * - events of the customer, with or without `type` (an integrator catching up on the events it handles);
 * - delivery attempts of one webhook, with or without `status` (FAILED: what did not arrive);
 * - recipients and webhooks of the customer, unfiltered: a recipient's taxId or alias matches a few rows, and a
 *   customer has a handful of webhooks, so their filters count a few index entries.
 * Their price on the write paths (README, "Totals"): an event's insert and an attempt's status change each run one
 * grouped upsert more; a webhook's updates none (counted by customer alone: no UPDATE trigger); attempts are not
 * counted for the whole customer too, which nothing reads.
 * The purges (events, and their finished attempts in the same statement) delete through the DELETE triggers, so
 * the counts stay exact; a webhook's deletion takes its attempts' counts to 0 through the cascade (and migration
 * 022 their rows away).
 */
export const OUTFLOW_LISTS: readonly CountedTable[] = [
  { list: 'transfers', table: 'transfers', scopes: {} },
  { list: 'outbox_events', table: 'outbox_events', scopes: {}, status: 'type' },
  { list: 'webhook_deliveries', table: 'webhook_deliveries', scopes: { webhook: 'webhook_id' }, wholeCustomer: false },
  { list: 'contacts', table: 'contacts', scopes: {}, status: null },
  { list: 'webhooks', table: 'webhooks', scopes: {}, status: null },
];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(OUTFLOW_LISTS.map(countedListSql).join('\n'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(OUTFLOW_LISTS.map(uncountedListSql).join('\n'));
}
