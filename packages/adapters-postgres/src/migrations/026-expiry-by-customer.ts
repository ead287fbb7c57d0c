import type { Knex } from 'knex';

/** The types that expire (the domain's positive types), spelled as the job's statement spells them. */
const EXPIRING = "status = 'PENDING' AND receivable_type IN ('INVOICE', 'DEBT')";

/**
 * The expiry job's queue: a customer's PENDING receivables of the types that expire, in due order. The index it
 * replaces held every PENDING receivable by due date alone, so the job's ordered pick walked the primary key past
 * every settled receivable (650,000 rows for 500 in a measured case) and, through the old index, every PENDING
 * negative-type child, which never expires; each batch of a run did it again. Led by the customer, the same index
 * serves the sandbox's run for one customer without reading the others' queues.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX receivables_expiring ON receivables (customer_id, due_date, id) WHERE ${EXPIRING};
    DROP INDEX receivables_expiry;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX receivables_expiry ON receivables (due_date) WHERE status = 'PENDING';
    DROP INDEX receivables_expiring;
  `);
}
