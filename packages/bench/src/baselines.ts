import path from 'node:path';
import pg from 'pg';
import { forkServer } from './children';
import { ownCpuSeconds, treeCpuSeconds, withCpuCost, type DatabaseCpu } from './cpu';
import { httpLoad } from './load';
import { receivableBody } from './payload';
import { summarise, type Measurement } from './stats';

/** The receivables' main columns and only a primary key: the table baselines (a) and (d) write. */
export const BASELINE_RECEIVABLES_TABLE = `CREATE TABLE IF NOT EXISTS baseline_receivables (
    id BIGSERIAL PRIMARY KEY, customer_id BIGINT NOT NULL, receivable_account_id BIGINT NOT NULL, amount_minor BIGINT NOT NULL,
    currency_code TEXT NOT NULL, receivable_type TEXT NOT NULL, status TEXT NOT NULL, legal_number TEXT, receivable_date DATE NOT NULL,
    creation_date TIMESTAMPTZ NOT NULL, modification_date TIMESTAMPTZ NOT NULL, version INTEGER NOT NULL, settlement_id BIGINT)`;

/**
 * Baseline (a): the raw ceiling of a single-row INSERT transaction into a receivables-shaped table, node-pg with
 * the service's pool size and the scenarios' concurrency.
 */
export async function insertBaseline(url: string, poolSize: number, concurrency: number, seconds: number, database: DatabaseCpu = true): Promise<Measurement> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  await pool.query(BASELINE_RECEIVABLES_TABLE);
  const latencies: number[] = [];
  let errors = 0;
  const until = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < until) {
      const started = performance.now();
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO baseline_receivables (customer_id, receivable_account_id, amount_minor, currency_code, receivable_type, status,
            receivable_date, creation_date, modification_date, version)
           VALUES ($1, $2, $3, 'ARS', 'INVOICE', 'PENDING', CURRENT_DATE, now(), now(), 1)`,
          [1, 5, 123_456],
        );
        await client.query('COMMIT');
        latencies.push(performance.now() - started);
      } catch {
        errors++;
      } finally {
        client.release();
      }
    }
  };
  const measured = await withCpuCost(
    ownCpuSeconds,
    async () => {
      await Promise.all(Array.from({ length: concurrency }, worker));
      return summarise(latencies, seconds, errors);
    },
    { database },
  );
  await pool.end();
  return measured;
}

/** Baseline (b): an Express 5 handler that parses a JSON body and answers 201, no database, in its own process. */
export async function httpBaseline(connections: number, seconds: number): Promise<Measurement> {
  const { child, url } = await forkServer(path.join(__dirname, 'express-baseline-server.js'));
  try {
    return await withCpuCost(
      () => treeCpuSeconds(child.pid!),
      () =>
        httpLoad({
          url: `${url}/v1/receivables`,
          method: 'POST',
          body: receivableBody(5),
          connections,
          seconds,
          expectStatus: 201,
        }),
      { database: false },
    );
  } finally {
    child.kill();
  }
}
