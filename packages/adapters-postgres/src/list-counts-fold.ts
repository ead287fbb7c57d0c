import type { Knex } from 'knex';
import { isTransactionConflict } from './repositories/pg-errors';

/** What one fold did: count groups read, rows folded into their group's slot 0, rows of counts at 0 removed, chunks left to the next run. */
export interface FoldResult {
  readonly groups: number;
  readonly folded: number;
  readonly removed: number;
  readonly skipped: number;
}

type GroupKey = [list: string, customerId: string, scope: string, scopeId: string, status: string];

const KEY = '(list, customer_id, scope, scope_id, status)';
/** A count's key as read back (text, so a bigint keeps its digits), and the order the walk goes in. */
const KEY_ARRAY = 'ARRAY[list, customer_id::text, scope, scope_id::text, status]';
const KEY_ORDER = 'list, customer_id, scope, scope_id, status';

/**
 * A chunk of the groups written since the last fold: those with a writer's slot (1 to 8; migration 045's index
 * holds them alone), however many counts sit folded in slot 0 alone.
 */
const WRITTEN = `
    SELECT DISTINCT list, customer_id, scope, scope_id, status FROM list_counts
    WHERE slot <> 0 AND ${KEY} > (?, ?::bigint, ?, ?::bigint, ?)
    ORDER BY ${KEY_ORDER}`;

/**
 * Moves the writers' slots of each count of one chunk of written groups into its slot 0, in scope order like the
 * counting triggers, and answers the chunk's groups. A slot changed by a writer since is deleted as it is then
 * (READ COMMITTED re-reads a row it waited for), so what is moved is what was there.
 */
const FOLD_CHUNK = `
  WITH g AS (${WRITTEN} LIMIT ?), moved AS (
    DELETE FROM list_counts c USING g
    WHERE (c.list, c.customer_id, c.scope, c.scope_id, c.status) = (g.list, g.customer_id, g.scope, g.scope_id, g.status) AND c.slot <> 0
    RETURNING c.list, c.customer_id, c.scope, c.scope_id, c.status, c.n, c.amount_minor
  ), folded AS (
    INSERT INTO list_counts AS c (list, customer_id, scope, scope_id, status, slot, n, amount_minor)
    SELECT list, customer_id, scope, scope_id, status, 0, sum(n), sum(amount_minor) FROM moved
    GROUP BY list, customer_id, scope, scope_id, status
    ORDER BY scope, scope_id, customer_id, status
    ON CONFLICT (list, customer_id, scope, scope_id, status, slot)
      DO UPDATE SET n = c.n + excluded.n, amount_minor = c.amount_minor + excluded.amount_minor
  )
  SELECT (SELECT count(*) FROM g)::int AS groups, (SELECT count(*) FROM moved)::int AS folded,
         (SELECT ${KEY_ARRAY} FROM g
          ORDER BY list DESC, customer_id DESC, scope DESC, scope_id DESC, status DESC LIMIT 1) AS last,
         (SELECT json_agg(${KEY_ARRAY}) FROM g) AS keys`;

/**
 * The chunk's counts back at 0 (nothing counted, no amount), now one row each: they go, and come back with the next
 * change. By the chunk's keys: the range between its first and last holds every group folded before.
 */
const REMOVE_ZEROS = `
  DELETE FROM list_counts c
  USING json_array_elements(?::json) AS g (k)
  WHERE (c.list, c.customer_id, c.scope, c.scope_id, c.status) = (g.k ->> 0, (g.k ->> 1)::bigint, g.k ->> 2, (g.k ->> 3)::bigint, g.k ->> 4)
    AND c.slot = 0 AND c.n = 0 AND c.amount_minor = 0`;

/**
 * Counts of a webhook deleted since: its deletion removes them at its commit (migration 022), but a fold's slot 0
 * committed just after that would stay, read by nothing. Only a deleted webhook's are taken: the row is gone.
 */
const ORPHANED = `
  DELETE FROM list_counts c
  WHERE c.list = 'webhook_deliveries' AND c.scope = 'webhook' AND NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id = c.scope_id)`;

/**
 * Folds list_counts (migrations/counted-lists.ts): each count spread over up to 8 slot rows by its writers'
 * connections since the last fold becomes one row (slot 0), and a count back at 0 none, so the table holds what is
 * non-zero rather than every slot each account, client, associate and webhook ever wrote; a run reads the groups
 * written since the last, not every group. Sums are unchanged, so no total or pending amount a reader sees moves. A
 * busy count gets its slots back from its writers: the fold is for the quiet ones.
 *
 * Chunk by chunk in key order, each in a transaction of its own that waits at most `lockWaitMs` for a row a writer
 * holds. A chunk that would wait longer is tried again at half its size, down to the one count a writer holds,
 * which is left to the next run (`skipped`): a busy count costs about log2(chunk) short waits, and holds back only
 * itself. A writer waits behind the fold for about a chunk's statement, and the fold drops any wait of its own long
 * before PostgreSQL's deadlock check (1 s) runs, so a writer is not the victim of a cycle with it.
 */
export async function foldListCounts(knex: Knex, options: { readonly chunk?: number; readonly lockWaitMs?: number } = {}): Promise<FoldResult> {
  const chunk = options.chunk ?? 1_000;
  const lockWaitMs = Math.floor(options.lockWaitMs ?? 100);
  let after: GroupKey = ['', '0', '', '0', ''];
  let size = chunk;
  let [groups, folded, removed, skipped] = [0, 0, 0, 0];
  for (;;) {
    try {
      const done = await knex.transaction(async (tx) => {
        await tx.raw(`SELECT set_config('lock_timeout', '${lockWaitMs}', true)`);
        const { rows } = await tx.raw<{ rows: Array<{ groups: number; folded: number; last: GroupKey | null; keys: GroupKey[] | null }> }>(FOLD_CHUNK, [
          ...after,
          size,
        ]);
        const [{ last, keys, ...counts }] = rows;
        const zeros = keys ? (await tx.raw<{ rowCount: number }>(REMOVE_ZEROS, [JSON.stringify(keys)])).rowCount : 0;
        return { ...counts, last, zeros };
      });
      [groups, folded, removed] = [groups + done.groups, folded + done.folded, removed + done.zeros];
      if (!done.last || done.groups < size) break;
      after = done.last;
      size = chunk;
    } catch (error) {
      if (!isTransactionConflict(error)) throw error;
      if (size > 1) {
        size = Math.ceil(size / 2);
        continue;
      }
      // The one count a writer holds: it stays as it is for the next run.
      skipped++;
      size = chunk;
      const next = await knex.raw<{ rows: Array<{ key: GroupKey }> }>(`SELECT ${KEY_ARRAY} AS key FROM (${WRITTEN} LIMIT 1) g`, after);
      if (next.rows.length === 0) break;
      after = next.rows[0].key;
    }
  }
  removed += (await knex.raw<{ rowCount: number }>(ORPHANED)).rowCount;
  return { groups, folded, removed, skipped };
}
