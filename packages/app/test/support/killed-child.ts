import type { Knex } from 'knex';

/** The application_name a child process that kills itself connects with, so its backends can be found. */
const CHILD = 'killed-child';

/** `url` with the child's application_name, for the child to connect with. */
export function childUrl(url: string): string {
  const named = new URL(url);
  named.searchParams.set('application_name', CHILD);
  return named.toString();
}

/**
 * Waits until a killed child's backends have ended. A COMMIT the child sent (pipelined) just before dying may still
 * be running on the server when the child's exit is seen; state read before it ends misses that transaction.
 * PGlite serves one exchange at a time, so nothing of the child is in flight there once it is gone.
 */
export async function backendsGone(knex: Knex): Promise<void> {
  if (process.env.RCS_TEST_STORAGE === 'pglite') return;
  for (;;) {
    const { rows } = await knex.raw<{ rows: Array<{ n: number }> }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ?', [CHILD]);
    if (rows[0].n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
