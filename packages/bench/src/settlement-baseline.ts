import pg from 'pg';
import { BASELINE_RECEIVABLES_TABLE } from './baselines';
import { postgresCpuMeter } from './cpu';
import { progress, runningProgress } from './stats';

/** Receivables per statement (and transaction), as the issue sets baseline (d). */
const BATCH = 10_000;
/** Batches in flight at once: as many as the settlement cycle's loops (RunSettlementCycle's default). */
const CONCURRENCY = 3;

export interface SettlementBaselineResult {
  readonly seconds: number;
  readonly receivables: number;
  readonly movements: number;
  /** CPU the machine's PostgreSQL spent on the timed part, when it runs here. */
  readonly databaseCpuSeconds: number | undefined;
}

/** The movements' columns and only a primary key, as baseline (a)'s receivables table has. */
const MOVEMENTS_TABLE = `CREATE TABLE baseline_movements (
  id BIGSERIAL PRIMARY KEY, customer_id BIGINT NOT NULL, account_id BIGINT NOT NULL, account_kind TEXT NOT NULL, movement_type TEXT NOT NULL,
  operation_type TEXT NOT NULL, subtype TEXT, amount_minor BIGINT NOT NULL, currency_code TEXT NOT NULL, counterparty_name TEXT,
  counterparty_tax_id TEXT, settlement_id BIGINT, movement_date TIMESTAMPTZ NOT NULL)`;

/**
 * One batch of the settlement's data work and nothing else: its receivables marked SETTLED (status, settlement,
 * modification date, version, as the cycle writes them), and each account's pair of movements, the debit out of
 * the account and the credit into the current account, as the cycle writes them. No settlements table, balances,
 * events, locks or reads back.
 */
const SETTLE_BATCH = `WITH settled AS (
    UPDATE baseline_receivables SET status = 'SETTLED', settlement_id = receivable_account_id, modification_date = now(), version = version + 1
    WHERE id BETWEEN $1 AND $2 AND status = 'PAID'
    RETURNING receivable_account_id, amount_minor
  ), per_account AS (
    SELECT receivable_account_id AS account_id, SUM(amount_minor) AS total FROM settled GROUP BY 1
  )
  INSERT INTO baseline_movements (customer_id, account_id, account_kind, movement_type, operation_type, subtype, amount_minor, currency_code,
    settlement_id, movement_date)
  SELECT 1, account_id, side.kind, side.direction, 'SETTLEMENT', side.subtype, total, 'ARS', account_id, now()
  FROM per_account CROSS JOIN (VALUES ('RECEIVABLE', 'DEBIT', 'SETTLEMENT_OUT'), ('CURRENT', 'CREDIT', 'SETTLEMENT_IN')) AS side (kind, direction, subtype)`;

/**
 * Baseline (d): the settlement scenario's receivables (`accounts` x `perAccount`, PAID) settled with set-based SQL
 * through node-pg in batches of 10,000, timed from the first batch to the last commit. Its tables are made, seeded
 * (each account's receivables on consecutive ids, so a batch is a primary-key range), vacuumed and checkpointed
 * first, as the scenario's are, and dropped after.
 */
export async function settlementBaseline(url: string, accounts: number, perAccount: number): Promise<SettlementBaselineResult> {
  const total = accounts * perAccount;
  const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY });
  // end() resolves before its connections have closed; the database is dropped right after this, which ends
  // them from the server's side, and that error, unheard, would stop the bench.
  pool.on('error', () => undefined);
  try {
    await pool.query('DROP TABLE IF EXISTS baseline_receivables, baseline_movements');
    await pool.query(BASELINE_RECEIVABLES_TABLE);
    await pool.query(MOVEMENTS_TABLE);
    progress(`baseline (d): seeding ${total.toLocaleString('en')} PAID receivables`);
    await pool.query(
      `INSERT INTO baseline_receivables (customer_id, receivable_account_id, amount_minor, currency_code, receivable_type, status, receivable_date,
        creation_date, modification_date, version)
       SELECT 1, 1 + (g - 1) / $2::int, 1000 + g % 997, 'ARS', 'INVOICE', 'PAID', CURRENT_DATE, now(), now(), 1 FROM generate_series(1, $1::int) g`,
      [total, perAccount],
    );
    await pool.query('VACUUM ANALYZE baseline_receivables, baseline_movements');
    await pool.query('CHECKPOINT');

    progress(`baseline (d): settling them in batches of ${BATCH.toLocaleString('en')}, ${CONCURRENCY} at a time`);
    const running = runningProgress();
    let next = 1;
    let settled = 0;
    let movements = 0;
    let reported = 0;
    const databaseCpu = postgresCpuMeter();
    const started = performance.now();
    const worker = async () => {
      for (let from = next; from <= total; from = next) {
        next += BATCH;
        const { rowCount } = await pool.query(SETTLE_BATCH, [from, Math.min(total, from + BATCH - 1)]);
        settled += Math.min(total, from + BATCH - 1) - from + 1;
        movements += rowCount ?? 0;
        // Once a second at most, as the other runs report.
        const elapsed = Math.round((performance.now() - started) / 1000);
        if (elapsed !== reported) running.update(elapsed, `${elapsed} s: ${settled.toLocaleString('en')} / ${total.toLocaleString('en')} receivables settled`);
        reported = elapsed;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - started) / 1000;
    const databaseCpuSeconds = databaseCpu();
    running.done();
    const { rows } = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM baseline_receivables WHERE status = 'SETTLED'`);
    if (Number(rows[0].n) !== total) throw new Error(`baseline (d) settled ${rows[0].n} of ${total} receivables`);
    return {
      seconds,
      receivables: total,
      movements,
      databaseCpuSeconds,
    };
  } finally {
    await pool.query('DROP TABLE IF EXISTS baseline_receivables, baseline_movements').catch(() => undefined);
    await pool.end();
  }
}
