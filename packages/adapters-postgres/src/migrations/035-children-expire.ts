import type { Knex } from 'knex';

/**
 * Every PENDING receivable past its due date expires, children (negative types) included, as CONTRACT says of the
 * daily job; migration 026's queue held the positive types alone. Same shape: a customer's PENDING receivables in
 * due order, so a batch reads what it takes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX receivables_pending_by_due ON receivables (customer_id, due_date, id) WHERE status = 'PENDING';
    DROP INDEX receivables_expiring;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX receivables_expiring ON receivables (customer_id, due_date, id) WHERE status = 'PENDING' AND receivable_type IN ('INVOICE', 'DEBT');
    DROP INDEX receivables_pending_by_due;
  `);
}
