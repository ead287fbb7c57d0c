import { randomUUID } from 'node:crypto';
import express from 'express';
import pg from 'pg';
import { Money } from '@rcs/domain';
import { eventColumns, INSERT_EVENTS, newEventIds } from '@rcs/adapters-postgres';
import { listenForBench } from './children';

/**
 * The floor under two scenarios: an Express 5 app that sends the statements the service sends for a creation and
 * for a list, through node-pg (pipelining, like the service), with nothing else: no authentication, validation,
 * domain rules, Knex or mapping (the amount alone is read, as the service reads it, with Money.parse). What it
 * reaches is what any implementation of the same data work over Express and node-pg could reach on this machine;
 * the service's distance to it is the cost of everything else.
 * DATABASE_URL: the service's database, migrated and seeded; POOL_SIZE: connections.
 */
// JIT off, as on the service's connections (knex-factory.ts), so the two send the same statements the same way.
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10), pipeline: true, options: '-c jit=off' });

const RECEIVABLE_COLUMNS =
  'id, customer_id, receivable_account_id, client_id, amount_minor, currency_code, receivable_type, status, description, ' +
  'due_date, receivable_date, creation_date, modification_date, version';

/** Claim the key; read the account and number the receivable; then its insert, event, the stored answer and COMMIT in one trip. */
interface ReceivableBody {
  receivableAccountId: number;
  amount: number;
  receivableType: string;
  description: string;
  dueDate: string;
}

async function create(client: pg.PoolClient, credentialId: string, key: string, body: ReceivableBody) {
  const now = new Date();
  void client.query('BEGIN');
  const claimed = await client.query({
    name: 'claim',
    text: `INSERT INTO idempotency_keys (credential_id, key, fingerprint, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (credential_id, key) DO NOTHING RETURNING 1`,
    values: [credentialId, key, randomUUID(), now, new Date(now.getTime() + 86_400_000)],
  });
  if (claimed.rowCount !== 1) throw new Error('key already used');
  // The operation runs under a savepoint, as the service's does (a refusal is undone and kept with the key).
  void client.query('SAVEPOINT operation');
  const [accountRead, numbered] = await Promise.all([
    client.query<{ id: string; customer_id: string; client_id: string | null }>({
      name: 'account',
      text: 'SELECT * FROM receivable_accounts WHERE id = $1',
      values: [body.receivableAccountId],
    }),
    client.query<{ id: string }>({ name: 'number', text: `SELECT nextval('receivables_id_seq') AS id` }),
  ]);
  const account = accountRead.rows[0];
  const values = {
    id: numbered.rows[0].id,
    customer_id: account.customer_id,
    receivable_account_id: account.id,
    client_id: account.client_id,
    amount_minor: Money.parse(body.amount).minor.toString(),
    receivable_type: body.receivableType,
    description: body.description,
    due_date: body.dueDate,
    receivable_date: now.toISOString().slice(0, 10),
    creation_date: now,
  };
  const receivable = { ...values, currency_code: 'ARS', status: 'PENDING', modification_date: now, version: 1 };
  const json = JSON.stringify(receivable);
  const event = eventColumns([{ customerId: Number(account.customer_id), type: 'receivable.created', occurredAt: now, data: { receivable } }], newEventIds(1));
  const writes = [
    client.query({
      name: 'insert',
      text: `INSERT INTO receivables (${RECEIVABLE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, 'ARS', $6, 'PENDING', $7, $8, $9, $10, $10, 1)`,
      values: Object.values(values),
    }),
    client.query({ name: 'event', text: INSERT_EVENTS, values: event }),
    client.query('RELEASE SAVEPOINT operation'),
    client.query({
      name: 'answer',
      text: 'UPDATE idempotency_keys SET response_status = 201, response_body = $1, response_location = $2 WHERE credential_id = $3 AND key = $4',
      values: [json, `/v1/receivables/${receivable.id}`, credentialId, key],
    }),
    client.query('COMMIT'),
  ];
  await Promise.all(writes);
  return json;
}

const LIST = `SELECT receivables.*, (SELECT count(*) FROM receivables WHERE customer_id = $1 AND receivable_account_id = $2 AND status = $3) AS page_total
  FROM receivables WHERE customer_id = $1 AND receivable_account_id = $2 AND status = $3
  ORDER BY creation_date DESC, id DESC LIMIT $4`;

async function main() {
  const { rows } = await pool.query<{ credential_id: string; customer_id: string }>(
    `SELECT c.id AS credential_id, c.customer_id FROM credentials c ORDER BY c.id LIMIT 1`,
  );
  const { credential_id: credentialId, customer_id: customerId } = rows[0];
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.post('/v1/receivables', async (req, res) => {
    const client = await pool.connect();
    try {
      const json = await create(client, credentialId, req.header('idempotency-key') ?? randomUUID(), req.body as ReceivableBody);
      res.status(201).type('json').send(json);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      res.status(500).json({ detail: String(error) });
    } finally {
      client.release();
    }
  });
  app.get('/v1/receivables', async (req, res) => {
    const { rows: page } = await pool.query<{ page_total: string }>({
      name: 'list',
      text: LIST,
      values: [customerId, req.query.receivableAccountId, req.query.status, req.query.count ?? 20],
    });
    res.setHeader('X-Total-Count', page[0]?.page_total ?? '0');
    res.json(page);
  });
  listenForBench(app);
}

void main();
