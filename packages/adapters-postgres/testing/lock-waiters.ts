import type { Knex } from 'knex';

/**
 * Polls until `count` statements of this database wait on a lock (a request held behind another's row lock); with
 * `holder` (a backend pid), only those it blocks: other test files share the database, and their waits count too.
 */
export async function waitForLockWaiters(knex: Knex, count: number, holder?: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const { rows } = await knex.raw<{ rows: Array<{ n: number }> }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock' AND (?::int IS NULL OR ?::int = ANY(pg_blocking_pids(pid)))`,
      [holder ?? null, holder ?? null],
    );
    if (rows[0].n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no request came to wait on a lock');
}
