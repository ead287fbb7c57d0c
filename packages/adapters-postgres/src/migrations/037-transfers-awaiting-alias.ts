import type { Knex } from 'knex';

/**
 * The transfer worker's pick of due transfers still named by an alias alone (to resolve before paying): it walked
 * every due transfer to find them (20,000 read for none, once a minute while a backlog lasted). Most transfers name
 * their CBU/CVU, so the index holds few entries and most creations write none.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX transfers_awaiting_alias ON transfers ((COALESCE(scheduled_date, '-infinity'::date)), id)
      WHERE status IN ('PENDING', 'SCHEDULED') AND type = 'OUTGOING_TRANSFER' AND destination_cbu_cvu IS NULL;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX transfers_awaiting_alias');
}
