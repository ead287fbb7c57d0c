import os from 'node:os';
import pg from 'pg';
import { createDatabase } from '@rcs/adapters-postgres';
import { postgresCpuMeter } from './cpu';
import type { Row } from './report';
import { seedReceivables } from './seed';
import { startService, type ServiceProcess } from './service-process';
import { statementStats, statementTable } from './statement-stats';
import { progress, runningProgress } from './stats';

/** Items per request: CONTRACT's most. */
const PER_BATCH = 1_000;

/** Where the load goes: `total` receivables in batches over `clients` ACTIVE accounts, batch b on account b % clients. */
interface Ingest {
  readonly total: number;
  readonly clients: number;
  readonly customerId: number;
  readonly accounts: ReadonlyArray<{ readonly id: number; readonly clientId: number }>;
}

interface Timed {
  readonly seconds: number;
  readonly databaseCpuSeconds: number | undefined;
  readonly failed: number;
}

/** Receivable n of the load, as a batch item: an ERP's invoice, its number unique. */
const itemOf = (accountId: number, n: number) => ({
  receivableAccountId: accountId,
  amount: ((1000 + (n % 997)) / 100).toFixed(2),
  currencyCode: 'ARS',
  receivableType: 'INVOICE',
  legalNumber: `ING-${n}`,
  description: `Factura ${n}`,
  dueDate: '2026-12-31',
});

/**
 * `ingest.clients` workers taking the next batch until all are sent (`send` returns how many of its items
 * failed), timed, with the database's CPU; `checkpoint` at 10 % of the batches.
 */
async function timedBatches(ingest: Ingest, label: string, send: (batch: number) => Promise<number>, checkpoint = () => {}): Promise<Timed> {
  const batches = Math.ceil(ingest.total / PER_BATCH);
  let next = 0;
  let done = 0;
  let failed = 0;
  const running = runningProgress();
  const started = performance.now();
  const poll = setInterval(() => {
    const elapsed = (performance.now() - started) / 1000;
    running.update(elapsed, `${Math.round(elapsed)} s: ${label}: ${(done * PER_BATCH).toLocaleString('en')} / ${ingest.total.toLocaleString('en')}`);
  }, 1000);
  const databaseCpu = postgresCpuMeter();
  const worker = async () => {
    for (let batch = next++; batch < batches; batch = next++) {
      failed += await send(batch);
      if (++done === Math.ceil(batches / 10)) checkpoint();
    }
  };
  try {
    await Promise.all(Array.from({ length: ingest.clients }, worker));
  } finally {
    clearInterval(poll);
    running.done();
  }
  return { seconds: (performance.now() - started) / 1000, databaseCpuSeconds: databaseCpu(), failed };
}

const itemsOf = (ingest: Ingest, batch: number) => {
  const account = ingest.accounts[batch % ingest.accounts.length];
  const first = batch * PER_BATCH;
  return Array.from({ length: Math.min(PER_BATCH, ingest.total - first) }, (_, i) => ({ account, n: first + i }));
};

/** Baseline (c): the same rows as multi-row INSERT transactions through node-pg, into a table like receivables (its columns and indexes). */
async function insertBaseline(url: string, ingest: Ingest): Promise<Timed> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('DROP TABLE IF EXISTS baseline_c_receivables');
  await admin.query('CREATE TABLE baseline_c_receivables (LIKE receivables INCLUDING ALL)');
  await admin.query('CHECKPOINT');
  const pool = new pg.Pool({ connectionString: url, max: ingest.clients });
  const columns = [
    'customer_id, receivable_account_id, client_id, amount_minor, currency_code, receivable_type, status, legal_number, description, due_date',
    'receivable_date, creation_date, modification_date, version',
  ].join(', ');
  try {
    return await timedBatches(ingest, 'baseline (c)', async (batch) => {
      const rows = itemsOf(ingest, batch);
      const values = rows.map((_, i) => `(${Array.from({ length: 10 }, (__, j) => `$${i * 10 + j + 1}`).join(', ')}, CURRENT_DATE, now(), now(), 1)`);
      const parameters = rows.flatMap(({ account, n }) => {
        const item = itemOf(account.id, n);
        return [
          ingest.customerId,
          account.id,
          account.clientId,
          1000 + (n % 997),
          'ARS',
          'INVOICE',
          'PENDING',
          item.legalNumber,
          item.description,
          item.dueDate,
        ];
      });
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`INSERT INTO baseline_c_receivables (${columns}) VALUES ${values.join(', ')}`, parameters);
        await client.query('COMMIT');
        return 0;
      } finally {
        client.release();
      }
    });
  } finally {
    await pool.end();
    await admin.query('DROP TABLE baseline_c_receivables');
    await admin.end();
  }
}

interface Loaded extends Timed {
  readonly serviceCpuSeconds: number;
  /** The service's peak resident memory once a tenth of the load was in, and at its end: flat if they match. */
  readonly earlyPeakRssMiB: number;
  readonly peakRssMiB: number;
  readonly stored: number;
}

/** The load through POST /v1/receivables/batches, each batch under its own Idempotency-Key, every item expected 201. */
async function loadThroughService(service: ServiceProcess, knex: ReturnType<typeof createDatabase>, ingest: Ingest, url: string): Promise<Loaded> {
  const token = await service.login();
  await knex.raw('CHECKPOINT');
  // What each statement costs a receivable, when the server has pg_stat_statements loaded.
  const statements = await statementStats(url, new URL(url).pathname.slice(1));
  await statements?.reset();
  const cpuBefore = service.cpuSeconds();
  let earlyPeakRssMiB = 0;
  const timed = await timedBatches(
    ingest,
    'batches through the service',
    async (batch) => {
      const items = itemsOf(ingest, batch).map(({ account, n }) => itemOf(account.id, n));
      const res = await service.call('POST', '/v1/receivables/batches', token, { items }, { 'Idempotency-Key': `ingest-${batch}` });
      const results = (res.body as { results?: Array<{ status: number }> } | null)?.results ?? [];
      return res.status === 200 ? items.length - results.filter((r) => r.status === 201).length : items.length;
    },
    () => (earlyPeakRssMiB = service.peakRssMiB()),
  );
  if (statements) {
    progress(`statements per receivable:\n${statementTable(await statements.read(ingest.total, 0.0005))}`);
    await statements.end();
  }
  const [{ n }] = await knex('receivables').where({ customer_id: ingest.customerId }).count<Array<{ n: string }>>({ n: '*' });
  return { ...timed, serviceCpuSeconds: service.cpuSeconds() - cpuBefore, earlyPeakRssMiB, peakRssMiB: service.peakRssMiB(), stored: Number(n) };
}

const databaseCpu = (seconds: number | undefined) => (seconds === undefined ? '' : `, database CPU ${seconds.toFixed(1)} s`);

/**
 * Bulk ingest: `total` receivables through the batch endpoint by `clients` concurrent clients (the service as
 * deployed here, one HTTP process per core), against baseline (c), measured before and after it, the faster kept.
 */
export async function batchIngestRows(url: string, total: number, clients: number): Promise<Row[]> {
  const workers = os.cpus().length;
  const service = await startService({ DATABASE_URL: url, HTTP_WORKERS: String(workers), DB_POOL_SIZE: String(clients) });
  const knex = createDatabase({ url, poolSize: 1 });
  try {
    const customer = await knex('customers').where({ name: 'Sandbox Customer 1' }).first<{ id: string }>('id');
    const firstAccount = await seedReceivables(knex, Number(customer.id), clients, 0, 'PENDING');
    const accounts = (await knex('receivable_accounts').where('id', '>=', firstAccount).orderBy('id').limit(clients).select('id', 'client_id')).map(
      (a: { id: string; client_id: string }) => ({ id: Number(a.id), clientId: Number(a.client_id) }),
    );
    const ingest: Ingest = { total, clients, customerId: Number(customer.id), accounts };
    progress(`bulk ingest: baseline (c), ${total.toLocaleString('en')} rows as ${PER_BATCH}-row INSERT transactions, ${clients} clients`);
    const cBefore = await insertBaseline(url, ingest);
    progress(`bulk ingest: ${total.toLocaleString('en')} receivables through POST /v1/receivables/batches, ${clients} clients, ${workers} HTTP process(es)`);
    const s = await loadThroughService(service, knex, ingest, url);
    progress('bulk ingest: baseline (c) again');
    const cAfter = await insertBaseline(url, ingest);
    const c = cBefore.seconds <= cAfter.seconds ? cBefore : cAfter;
    const cRate = total / c.seconds;
    const rate = s.stored / s.seconds;
    const complete = s.failed === 0 && s.stored === total;
    return [
      {
        storage: '-',
        scenario: `baseline (c) ${PER_BATCH}-row INSERT transactions`,
        result: { throughput: cRate, errors: 0, count: total, unit: 'receivables/s' },
        note: `${c.seconds.toFixed(1)} s${databaseCpu(c.databaseCpuSeconds)}; runs: ${cBefore.seconds.toFixed(1)} and ${cAfter.seconds.toFixed(1)} s; the faster is kept`,
      },
      {
        storage: `postgres, ${workers} proc`,
        scenario: `bulk ingest: ${total.toLocaleString('en')} receivables, ${clients} clients x ${PER_BATCH}-item batches`,
        result: { throughput: rate, errors: s.failed, count: s.stored, unit: 'receivables/s' },
        baseline: '(c)',
        ratio: rate / cRate,
        target: '>= 50% of (c); <= 120 s per 1,000,000, memory flat',
        met: complete && rate >= 0.5 * cRate && s.seconds <= (120 * total) / 1_000_000 && s.peakRssMiB <= 1.25 * s.earlyPeakRssMiB,
        note:
          `${s.seconds.toFixed(1)} s (service CPU ${s.serviceCpuSeconds.toFixed(1)} s${databaseCpu(s.databaseCpuSeconds)}), ` +
          `peak RSS ${s.earlyPeakRssMiB.toFixed(0)} MiB at 10 %, ${s.peakRssMiB.toFixed(0)} MiB at the end, ${s.stored.toLocaleString('en')} stored`,
      },
    ];
  } finally {
    await knex.destroy();
    await service.stop();
  }
}
