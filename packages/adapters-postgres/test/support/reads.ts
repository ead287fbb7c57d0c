import type { Knex } from 'knex';
import type { BoundKnexUnitOfWork, KnexUnitOfWork } from '../../src/knex-unit-of-work';

/**
 * Runs `work` in a transaction and counts the index entries and table rows of `tables` it read, from the
 * transaction's own statistics: what a statement costs as the data grows, whatever the machine's speed.
 */
export function readsOf<T>(
  uow: KnexUnitOfWork,
  tables: readonly string[],
  work: (bound: BoundKnexUnitOfWork) => Promise<T>,
): Promise<{ result: T; read: number }> {
  return uow.begin(async (bound) => {
    const read = async () => readSoFar(bound.executor(), tables);
    const before = await read();
    const result = await work(bound);
    return { result, read: (await read()) - before };
  });
}

async function readSoFar(db: Knex, tables: readonly string[]): Promise<number> {
  const { rows } = await db.raw<{ rows: { n: string }[] }>(
    `SELECT sum(pg_stat_get_xact_tuples_fetched(t.oid)
       + (SELECT COALESCE(sum(pg_stat_get_xact_tuples_returned(indexrelid)), 0) FROM pg_index WHERE indrelid = t.oid)) AS n
     FROM pg_class t WHERE t.oid = ANY(?::regclass[])`,
    [[...tables]],
  );
  return Number(rows[0].n);
}
