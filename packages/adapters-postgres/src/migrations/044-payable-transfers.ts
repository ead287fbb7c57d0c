import type { Knex } from 'knex';

const DUE_DAY = "COALESCE(scheduled_date, '-infinity'::date)";

/**
 * The transfer worker's pick of transfers it can pay (knex-transfer-repository lockDue) as an index of its own: 029's
 * index held the due transfers still named by an alias alone too, which the pick passes over, and unscheduled ones
 * sort first, so every chunk of every pass read through all of them (20,000 read for 500 taken, 3 to 5 ms, while a
 * provider outage held them back). Those have 037's index.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX transfers_payable_by_day ON transfers ((${DUE_DAY}), id)
      WHERE status IN ('PENDING', 'SCHEDULED') AND (type = 'INTERNAL_TRANSFER' OR destination_cbu_cvu IS NOT NULL);
    DROP INDEX transfers_due_by_day;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX transfers_due_by_day ON transfers ((${DUE_DAY}), id) WHERE status IN ('PENDING', 'SCHEDULED');
    DROP INDEX transfers_payable_by_day;
  `);
}
