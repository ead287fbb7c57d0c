import pg from 'pg';

/** One statement's cost over a measured run, per creation answered (pg_stat_statements). */
export interface StatementCost {
  readonly query: string;
  /** False for a statement run inside another (a trigger's): its time is also in the statement that fired it. */
  readonly toplevel: boolean;
  readonly callsPerRequest: number;
  /** Execution time (planning included) per request, in microseconds: wall time in the server, CPU most of it. */
  readonly usPerRequest: number;
  readonly rowsPerRequest: number;
  readonly walBytesPerRequest: number;
  readonly buffersPerRequest: number;
}

/**
 * pg_stat_statements of the server at `url`, when its library is loaded (shared_preload_libraries, which takes a
 * restart; the bench only creates the extension): undefined otherwise. `reset` starts a measurement; `read` gives
 * what the statements of `database` cost since, per request.
 */
export async function statementStats(url: string, database: string) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  // Resetting needs the rights to: a server that denies them measures nothing here rather than failing the row.
  const reset = () => admin.query('SELECT pg_stat_statements_reset(), pg_stat_reset()');
  try {
    await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await admin.query('SELECT 1 FROM pg_stat_statements LIMIT 1');
    await reset();
  } catch {
    await admin.end();
    return undefined;
  }
  return {
    /** Index scans (pg_stat_user_indexes) start again from zero too. */
    async reset(): Promise<void> {
      await reset();
    },
    async read(requests: number, minCallsPerRequest = 0.1): Promise<StatementCost[]> {
      const { rows } = await admin.query<{ query: string; toplevel: boolean; calls: string; us: number; rows: string; wal: string; buffers: string }>(
        `SELECT query, toplevel, calls, (total_exec_time + total_plan_time) * 1000 AS us, rows, wal_bytes AS wal,
                shared_blks_hit + shared_blks_read AS buffers
         FROM pg_stat_statements JOIN pg_database d ON d.oid = dbid
         WHERE d.datname = $1 AND calls >= $2
         ORDER BY total_exec_time DESC`,
        // Statements run for fewer requests are not the measured work's (the bench's own reads).
        [database, Math.ceil(requests * minCallsPerRequest)],
      );
      const per = (value: number | string) => Number(value) / requests;
      return rows.map((r) => ({
        query: r.query.replace(/\s+/g, ' '),
        toplevel: r.toplevel,
        callsPerRequest: per(r.calls),
        usPerRequest: per(r.us),
        rowsPerRequest: per(r.rows),
        walBytesPerRequest: per(r.wal),
        buffersPerRequest: per(r.buffers),
      }));
    },
    end: () => admin.end(),
  };
}

/** Scans of each index of `table` since the statistics were reset (pg_stat_user_indexes), fewest first. */
export async function indexScans(url: string, table: string): Promise<Array<{ index: string; scans: number; sizeMiB: number }>> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ index: string; scans: string; bytes: string }>(
      `SELECT indexrelname AS index, idx_scan AS scans, pg_relation_size(indexrelid) AS bytes
       FROM pg_stat_user_indexes WHERE relname = $1 ORDER BY idx_scan, indexrelname`,
      [table],
    );
    return rows.map((r) => ({ index: r.index, scans: Number(r.scans), sizeMiB: Number(r.bytes) / 2 ** 20 }));
  } finally {
    await admin.end();
  }
}

/** The statements' table, as the README shows it. */
export function statementTable(costs: readonly StatementCost[]): string {
  const lines = costs.map(
    (c) =>
      `| ${c.toplevel ? '' : '(nested) '}${c.query.slice(0, 110)} | ${c.callsPerRequest.toFixed(2)} | ${c.usPerRequest.toFixed(0)} | ` +
      `${c.rowsPerRequest.toFixed(2)} | ${c.buffersPerRequest.toFixed(1)} | ${c.walBytesPerRequest.toFixed(0)} |`,
  );
  const total = costs.filter((c) => c.toplevel).reduce((sum, c) => sum + c.usPerRequest, 0);
  return [
    '| statement | calls/req | us/req | rows/req | buffers/req | WAL bytes/req |',
    '|---|---|---|---|---|---|',
    ...lines,
    `| all top-level statements | | ${total.toFixed(0)} | | | |`,
  ].join('\n');
}
