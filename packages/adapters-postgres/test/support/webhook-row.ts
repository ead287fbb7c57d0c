import type { Knex } from 'knex';

/**
 * A webhook written straight into its table, as a migration test needs rows the schema of the moment can hold:
 * `columns` add to or override the defaults.
 */
export async function insertWebhookRow(knex: Knex, customerId: number, now: Date, columns: Record<string, unknown> = {}): Promise<string> {
  const [webhook] = await knex('webhooks')
    .insert({
      customer_id: customerId,
      url: 'https://erp.example/h',
      events: ['receivable.paid'],
      status: 'ACTIVE',
      secret_sealed: 'v1.now',
      secret_tail: 'abcd',
      creation_date: now,
      modification_date: now,
      version: 1,
      ...columns,
    })
    .returning<Array<{ id: string }>>('id');
  return webhook.id;
}
