import type { Knex } from 'knex';

/**
 * Paying transfers. A transfer's movements name it (transfer_id), and a unique index lets each of them happen once
 * whatever runs twice: one TRANSFER_OUT debit, one TRANSFER_IN credit (an INTERNAL_TRANSFER's destination), one
 * TRANSFER_REVERSAL returning a failed payout's debit. The reconciliation pass reads IN_PROGRESS transfers by the
 * end of their lease, through a partial index that holds only transfers being paid.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE movements ADD COLUMN transfer_id BIGINT REFERENCES transfers (id);
    CREATE UNIQUE INDEX movements_transfer_side ON movements (transfer_id, subtype) WHERE transfer_id IS NOT NULL;
    CREATE INDEX transfers_leased ON transfers (claimed_until, id) WHERE status = 'IN_PROGRESS';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX transfers_leased;
    DROP INDEX movements_transfer_side;
    ALTER TABLE movements DROP COLUMN transfer_id;
  `);
}
