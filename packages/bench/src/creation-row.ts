import { insertBaseline } from './baselines';
import { serverCpuReader, withCpuCost } from './cpu';
import { halfLoadCreations, halfLoadRow, type HalfLoad } from './latency-scenario';
import type { Row } from './report';
import { createReceivables, type ScenarioRun } from './scenarios';
import { startService } from './service-process';
import { indexScans, statementStats, statementTable } from './statement-stats';
import { progress, type Measurement } from './stats';

export interface CreationSettings {
  readonly connections: number;
  readonly seconds: number;
  readonly poolSize: number;
  /** HTTP processes of each run: as deployed here first, then one. */
  readonly workers: readonly number[];
}

/** Target (issue 21 item 5): PostgreSQL's CPU per creation at most twice baseline (a)'s per INSERT transaction. */
const DATABASE_TARGET = 2;
/** Target: the service's own CPU per creation, one process, in microseconds. */
const SERVICE_TARGET_US = 1_000;

const databaseUs = (m: Measurement) => m.cpuPerRequestUs?.database ?? Number.NaN;

/**
 * BENCH_ONLY=create: the creation row alone, quicker to repeat than the whole bench, with its half-load row and
 * baseline (a) before and after it (the faster kept), PostgreSQL's CPU counted for the bench's server only (not every PostgreSQL process
 * on a shared machine), and, when pg_stat_statements is loaded, what each statement cost per creation; then the
 * receivables' index scans.
 */
export async function creationRows(
  url: string,
  seed: (url: string) => Promise<Omit<ScenarioRun, 'connections' | 'seconds' | 'token'>>,
  settings: CreationSettings,
) {
  const { connections, seconds, poolSize } = settings;
  const database = await serverCpuReader(url);
  const statements = await statementStats(url, new URL(url).pathname.slice(1));
  const baseline = () => {
    progress(`baseline (a): node-pg Pool(${poolSize}) single-row INSERT transactions, ${connections} concurrent`);
    return insertBaseline(url, poolSize, connections, seconds, database);
  };
  const before = await baseline();
  const runs: Array<{ workers: number; result: Measurement }> = [];
  let perStatement: string | undefined;
  let halfLoad: HalfLoad | undefined;
  let seeded: Awaited<ReturnType<typeof seed>> | undefined;
  try {
    for (const workers of settings.workers) {
      const service = await startService({
        DATABASE_URL: url,
        HTTP_WORKERS: String(workers),
        DB_POOL_SIZE: String(Math.max(1, Math.round(poolSize / workers))),
      });
      try {
        seeded ??= await seed(url);
        const run = { connections, seconds, token: await service.login(), ...seeded };
        await statements?.reset();
        progress(`create receivable, ${workers} HTTP process(es), ${connections} connections for ${seconds} s`);
        const result = await withCpuCost(
          () => service.cpuSeconds(),
          () => createReceivables(service, run),
          { database },
        );
        if (perStatement === undefined && statements) perStatement = statementTable(await statements.read(result.count));
        runs.push({ workers, result });
        // As the full run does: at half the rate just reached, on the service as deployed here.
        halfLoad ??= await halfLoadCreations(service, run, result);
      } finally {
        await service.stop();
      }
    }
  } finally {
    await statements?.end();
  }
  const after = await baseline();
  const insert = before.throughput >= after.throughput ? before : after;
  const rows: Row[] = [
    {
      storage: '-',
      scenario: 'baseline (a) INSERT transaction',
      result: insert,
      note: `runs: ${Math.round(before.throughput)} and ${Math.round(after.throughput)} req/s; the faster is kept`,
    },
  ];
  for (const { workers, result } of runs) {
    const dbRatio = databaseUs(result) / databaseUs(insert);
    const serviceUs = result.cpuPerRequestUs?.service ?? Number.NaN;
    rows.push({
      storage: `postgres, ${workers} proc`,
      scenario: 'create receivable',
      result,
      baseline: '(a)',
      ratio: result.throughput / insert.throughput,
      target: workers === 1 ? `db CPU <= ${DATABASE_TARGET}x (a)'s; service CPU <= ${SERVICE_TARGET_US} us` : `db CPU <= ${DATABASE_TARGET}x (a)'s`,
      met: dbRatio <= DATABASE_TARGET && (workers !== 1 || serviceUs <= SERVICE_TARGET_US),
      note: `database CPU ${dbRatio.toFixed(2)}x baseline (a)'s per request`,
    });
  }
  if (halfLoad) rows.splice(2, 0, halfLoadRow(`postgres, ${settings.workers[0]} proc`, halfLoad));
  const indexes = (await indexScans(url, 'receivables')).map((i) => `${i.index}: ${i.scans} scans, ${i.sizeMiB.toFixed(1)} MiB`).join('\n');
  return { rows, perStatement, indexes };
}

/** What creationRows measured, as printed: the rows' `table`, their notes, the statements and the index scans. */
export function creationReport({ rows, perStatement, indexes }: Awaited<ReturnType<typeof creationRows>>, table: string): string {
  const notes = rows.filter((row) => row.note).map((row) => `${row.storage} ${row.scenario}: ${row.note}`);
  return [
    `\n${table}\n`,
    ...notes,
    `\nPer statement, per creation (pg_stat_statements, the first run):\n${perStatement ?? 'pg_stat_statements is not loaded on this server'}`,
    `\nreceivables' indexes, scans during the last run:\n${indexes}\n`,
  ].join('\n');
}
