import type { Knex } from 'knex';
import { progress } from './stats';

const CHUNK = 100_000;

/** Runs `insert(from, to)` over [1, total] in chunks, printing progress: set-based INSERT ... SELECT, never row by row. */
async function inChunks(label: string, total: number, insert: (from: number, to: number) => Promise<unknown>): Promise<void> {
  const started = Date.now();
  for (let from = 1; from <= total; from += CHUNK) {
    const to = Math.min(total, from + CHUNK - 1);
    await insert(from, to);
    progress(`seeding ${label}: ${to.toLocaleString('en')} / ${total.toLocaleString('en')} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
}

/**
 * `accounts` ACTIVE receivable accounts (one client each) for a customer, and `perAccount` receivables on each
 * with the given status; returns the first account id. When `collected` is set, each account also gets one
 * collection of exactly its receivables' total, with the matching movement, so the ledger holds.
 */
export async function seedReceivables(
  knex: Knex,
  customerId: number,
  accounts: number,
  perAccount: number,
  status: 'PENDING' | 'PAID',
  collected = false,
): Promise<number> {
  const base = Number((await knex('clients').max({ m: 'id' }))[0].m ?? 0);
  await inChunks('clients', accounts, (from, to) =>
    knex.raw(
      `INSERT INTO clients (customer_id, business_name, tax_id, document_type, creation_date, modification_date, version)
       SELECT ?, 'Bench client ' || g, lpad((? + g)::text, 11, '0'), 'CUIT', now(), now(), 1 FROM generate_series(?::int, ?::int) g`,
      [customerId, base, from, to],
    ),
  );
  const firstAccount = Number((await knex.raw<{ rows: Array<{ id: string }> }>(`SELECT last_value + 1 AS id FROM account_id_seq`)).rows[0].id);
  await inChunks('receivable accounts', accounts, (from, to) =>
    knex.raw(
      `INSERT INTO receivable_accounts (customer_id, client_id, currency_code, status, cvu, alias, creation_date, modification_date, version)
       SELECT ?, c.id, 'ARS', 'ACTIVE', '99' || lpad(c.id::text, 20, '0'), 'bench.' || c.id, now(), now(), 1
       FROM clients c WHERE c.customer_id = ? AND c.id BETWEEN ? AND ? ORDER BY c.id`,
      [customerId, customerId, base + from, base + to],
    ),
  );
  const total = accounts * perAccount;
  await inChunks(`receivables (${status})`, total, (from, to) =>
    knex.raw(
      `INSERT INTO receivables (customer_id, receivable_account_id, client_id, amount_minor, currency_code, receivable_type, status, receivable_date,
        creation_date, modification_date, version)
       SELECT ?, ra.id, ra.client_id, 1000 + g % 997, 'ARS', 'INVOICE', ?, CURRENT_DATE, now() - (g || ' milliseconds')::interval, now(), 1
       FROM generate_series(?::int, ?::int) g
       JOIN receivable_accounts ra ON ra.id = ? + (g % ?)`,
      [customerId, status, from, to, firstAccount, accounts],
    ),
  );
  if (collected) {
    await knex.raw(
      `WITH totals AS (SELECT receivable_account_id AS id, SUM(amount_minor) AS total FROM receivables WHERE customer_id = ? GROUP BY 1),
       moved AS (
         INSERT INTO movements (customer_id, account_id, account_kind, movement_type, operation_type, amount_minor, currency_code, counterparty_name,
           counterparty_tax_id, movement_date)
         SELECT ?, id, 'RECEIVABLE', 'CREDIT', 'DEPOSIT', total, 'ARS', 'Bench payer', '20123456786', now() FROM totals RETURNING account_id, amount_minor)
       UPDATE receivable_accounts ra SET balance_minor = ra.balance_minor + moved.amount_minor FROM moved WHERE ra.id = moved.account_id`,
      [customerId, customerId],
    );
    progress(`seeding collections: ${accounts.toLocaleString('en')} accounts credited`);
  }
  // As a database that has been running would be: statistics fresh, tuples vacuumed (hint bits and visibility
  // map set), and the seeding's dirty pages written, so the measured work does not pay for the seeding's.
  progress('seeding: VACUUM ANALYZE and CHECKPOINT');
  await knex.raw('VACUUM ANALYZE');
  await knex.raw('CHECKPOINT');
  return firstAccount;
}
