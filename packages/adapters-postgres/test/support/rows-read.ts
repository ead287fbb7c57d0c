import type { Knex } from 'knex';

/**
 * Runs `work` in a transaction of its own and counts the rows and index entries of `tables` it read, from the
 * transaction's own statistics: what a read costs, whatever the machine's speed.
 */
export function rowsReadBy<T>(knex: Knex, tables: readonly string[], work: (trx: Knex.Transaction) => Promise<T>): Promise<{ result: T; read: number }> {
  return knex.transaction(async (trx) => {
    const read = async () =>
      Number(
        (
          await trx.raw<{ rows: { n: string }[] }>(
            `SELECT sum(pg_stat_get_xact_tuples_fetched(t.oid)
               + (SELECT COALESCE(sum(pg_stat_get_xact_tuples_returned(indexrelid)), 0) FROM pg_index WHERE indrelid = t.oid)) AS n
             FROM pg_class t WHERE t.oid = ANY(?::regclass[])`,
            [[...tables]],
          )
        ).rows[0].n,
      );
    const before = await read();
    const result = await work(trx);
    return { result, read: (await read()) - before };
  });
}
