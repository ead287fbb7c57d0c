import type { Knex } from 'knex';

/** The provider's transfer id on incoming money: one movement per id, enforced by the database. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE movements ADD COLUMN provider_reference TEXT;
    CREATE UNIQUE INDEX movements_provider_reference ON movements (provider_reference) WHERE provider_reference IS NOT NULL;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE movements DROP COLUMN provider_reference');
}
