import type { Knex } from 'knex';
import { OUTFLOW_LISTS } from './018-outflow-list-counts';
import { RECEIVABLES_WITH_SUMS } from './032-pending-amounts-as-sums';
import { bucketCountsSql, countingFunctionSql, type CountedTable } from './counted-lists';

/** Hours since 1970 of a timestamptz column: whole hours in every time zone the service answers in. */
const hourOf = (column: string) => (row: string) => `floor(extract(epoch FROM ${row}.${column}) / 3600)::bigint`;

const EVENTS = OUTFLOW_LISTS.find((counted) => counted.list === 'outbox_events')!;

/**
 * Counts of the whole customer's lists by due day and creation hour (receivables) and by hour (events), with or
 * without status or type, so a date window's X-Total-Count sums a row a bucket instead of counting every row in
 * the window on every page: due this month, created today, events since the endpoint went down. Kept in
 * list_counts as scopes of their own (counted-lists.ts), folded and emptied by its fold like every other count.
 */
export const RECEIVABLES_BY_DAY_AND_HOUR: CountedTable = {
  ...RECEIVABLES_WITH_SUMS,
  buckets: { due_day: (row) => `(${row}.due_date - DATE '1970-01-01')::bigint`, created_hour: hourOf('creation_date') },
};
export const EVENTS_BY_HOUR: CountedTable = { ...EVENTS, buckets: { hour: hourOf('occurred_at') } };

const BUCKETED = [RECEIVABLES_BY_DAY_AND_HOUR, EVENTS_BY_HOUR];

/**
 * The writers are held off while the functions change and the rows already held are counted (as migration 032
 * does): a row written between the two would be counted twice or not at all.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    LOCK TABLE receivables, outbox_events IN SHARE ROW EXCLUSIVE MODE;
    ${BUCKETED.map((counted) => `${countingFunctionSql(counted)}\n${bucketCountsSql(counted)}`).join('\n')}
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    LOCK TABLE receivables, outbox_events IN SHARE ROW EXCLUSIVE MODE;
    ${countingFunctionSql(RECEIVABLES_WITH_SUMS)}
    ${countingFunctionSql(EVENTS)}
    DELETE FROM list_counts WHERE (list = 'receivables' AND scope IN ('due_day', 'created_hour')) OR (list = 'outbox_events' AND scope = 'hour');
  `);
}
