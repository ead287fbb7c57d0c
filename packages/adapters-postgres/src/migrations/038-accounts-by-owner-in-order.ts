import type { Knex } from 'knex';

/**
 * A client's or an associate's receivable accounts, listed (with a status, ACTIVE by default, or as merged status
 * ranges without one) newest first: the owner indexes held the owner alone, so a page walked the customer's
 * accounts by status and date and dropped other owners' (2,036 read for 21 answered at 20,000 accounts). Led by
 * the owner, then the status and the list's order, each serves its page and its count in order.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX receivable_accounts_client_listed ON receivable_accounts (customer_id, client_id, status, creation_date DESC, id DESC)
      WHERE client_id IS NOT NULL;
    CREATE INDEX receivable_accounts_associate_listed ON receivable_accounts (customer_id, associate_id, status, creation_date DESC, id DESC)
      WHERE associate_id IS NOT NULL;
    DROP INDEX receivable_accounts_client;
    DROP INDEX receivable_accounts_associate;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX receivable_accounts_client ON receivable_accounts (customer_id, client_id) WHERE client_id IS NOT NULL;
    CREATE INDEX receivable_accounts_associate ON receivable_accounts (customer_id, associate_id) WHERE associate_id IS NOT NULL;
    DROP INDEX receivable_accounts_client_listed;
    DROP INDEX receivable_accounts_associate_listed;
  `);
}
