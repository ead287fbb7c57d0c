import type { BoundKnexUnitOfWork, KnexUnitOfWork } from '../../src/knex-unit-of-work';

/**
 * Does `work` in a transaction of its own and counts what it read of `tables`, from that transaction's own
 * statistics: what a statement costs, whatever the machine's speed or what else runs. `read` is the entries of the
 * tables' indexes and the rows they led to; `scanned` the rows sequential scans read, told apart because a plan
 * made without statistics (a table filled by the test itself) may scan a small table where a running database's
 * would not (the webhook claim, in webhook-next-due.test.ts, scans both its tables until they are analyzed).
 */
export function readBy<T>(
  uow: KnexUnitOfWork,
  tables: readonly string[],
  work: (bound: BoundKnexUnitOfWork) => Promise<T>,
): Promise<{ result: T; read: number; scanned: number }> {
  return uow.begin(async (bound) => {
    const reads = async () => {
      const { rows } = await bound.executor().raw<{ rows: { read: string; scanned: string }[] }>(
        `SELECT sum(pg_stat_get_xact_tuples_fetched(t.oid)
               + (SELECT COALESCE(sum(pg_stat_get_xact_tuples_returned(indexrelid)), 0) FROM pg_index WHERE indrelid = t.oid)) AS read,
                sum(pg_stat_get_xact_tuples_returned(t.oid)) AS scanned
         FROM pg_class t WHERE t.oid = ANY(?::regclass[])`,
        [[...tables]],
      );
      return { read: Number(rows[0].read), scanned: Number(rows[0].scanned) };
    };
    const before = await reads();
    const result = await work(bound);
    const after = await reads();
    return { result, read: after.read - before.read, scanned: after.scanned - before.scanned };
  });
}
