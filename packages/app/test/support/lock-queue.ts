import type { Knex } from 'knex';

/**
 * Resolves once `count` sessions queue behind `holder`: waiting for it, or for a session that waits for it; or
 * once `stop` is aborted, for a test that races the queue against something that may never join it.
 */
export async function queuedBehind(knex: Knex, holder: number, count: number, stop?: AbortSignal): Promise<void> {
  while (!stop?.aborted) {
    const { rows } = await knex.raw<{ rows: { pid: number; blockers: number[] }[] }>(
      "SELECT pid, pg_blocking_pids(pid) AS blockers FROM pg_stat_activity WHERE wait_event_type = 'Lock'",
    );
    const behind = new Set([holder]);
    for (let grew = true; grew;) {
      grew = false;
      for (const { pid, blockers } of rows) {
        if (behind.has(pid) || !blockers.some((blocker) => behind.has(blocker))) continue;
        behind.add(pid);
        grew = true;
      }
    }
    if (behind.size - 1 >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
