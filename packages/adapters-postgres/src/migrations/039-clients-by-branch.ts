import type { Knex } from 'knex';

/**
 * Clients, and receivable accounts of clients, filtered by branchExternalCode: no index held it, so each such list
 * read every client of the customer (19,996 read for none answered at 20,000 clients). Newest first, as the list.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX clients_branch ON clients (customer_id, branch_external_code, creation_date DESC, id DESC) WHERE branch_external_code IS NOT NULL;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX clients_branch');
}
