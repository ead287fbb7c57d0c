import type { Knex } from 'knex';

/**
 * A receivable account written straight into its table, for a client of its own (the n-th of the test), as a
 * migration test needs rows the schema of the moment can hold: `columns` add to or override the defaults.
 */
export async function insertAccountRow(knex: Knex, customerId: number, n: number, columns: Record<string, unknown>): Promise<number> {
  const now = new Date();
  const [client] = await knex('clients')
    .insert({
      customer_id: customerId,
      business_name: `Client ${n}`,
      tax_id: String(30000000000 + n),
      document_type: 'CUIT',
      creation_date: now,
      modification_date: now,
      version: 1,
    })
    .returning<Array<{ id: string }>>('id');
  const [account] = await knex('receivable_accounts')
    .insert({ customer_id: customerId, client_id: client.id, currency_code: 'ARS', creation_date: now, modification_date: now, version: 1, ...columns })
    .returning<Array<{ id: string }>>('id');
  return Number(account.id);
}
