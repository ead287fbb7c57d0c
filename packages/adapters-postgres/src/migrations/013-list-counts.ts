import type { Knex } from 'knex';
import { countedListSql, LIST_COUNTS_SQL, uncountedListSql, type CountedTable } from './counted-lists';

export const RECEIVABLES: CountedTable = {
  list: 'receivables',
  table: 'receivables',
  scopes: { account: 'receivable_account_id', client: 'client_id', associate: 'associate_id' },
};
export const RECEIVABLE_ACCOUNTS: CountedTable = {
  list: 'receivable_accounts',
  table: 'receivable_accounts',
  scopes: { client: 'client_id', associate: 'associate_id' },
};

/**
 * Maintained counts for the lists integrators use most (receivables by customer, account, client or associate,
 * and receivable accounts by customer, client or associate, each with or without status), and the indexes
 * that give each of those lists its first page straight from an index, in order, whatever the rows: the
 * account, client and associate lists had one of the two (with or without status), and the other sorted every
 * matching row.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ${LIST_COUNTS_SQL}
    ${countedListSql(RECEIVABLES)}
    ${countedListSql(RECEIVABLE_ACCOUNTS)}
    CREATE INDEX receivables_account ON receivables (customer_id, receivable_account_id, creation_date DESC, id DESC);
    CREATE INDEX receivables_client_status ON receivables (customer_id, client_id, status, creation_date DESC, id DESC);
    CREATE INDEX receivables_associate_status ON receivables (customer_id, associate_id, status, creation_date DESC, id DESC)
      WHERE associate_id IS NOT NULL;
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP INDEX receivables_account, receivables_client_status, receivables_associate_status;
    ${uncountedListSql(RECEIVABLES)}
    ${uncountedListSql(RECEIVABLE_ACCOUNTS)}
    DROP TABLE list_counts;
  `);
}
