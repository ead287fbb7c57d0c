import type { Knex } from 'knex';

/**
 * An account's movements filtered by operationType or movementType: movements_account holds neither, so a current
 * account's transfers were found by reading its whole history of settlement credits (72 ms for 30 transfers among
 * 300,000 movements; `movementType=DEBIT` 338 ms, its total counted from the table). One index serves both: with an
 * operationType, as merged ranges of the two movement types; with a movementType, as merged ranges of the three
 * operation types; with both, as one range. A movement writes one index entry more.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX movements_by_kind ON movements (customer_id, account_id, operation_type, movement_type, movement_date DESC, id DESC);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX movements_by_kind');
}
