import type { Knex } from 'knex';

/**
 * The rows of `table` with any of `ids`, in id order, in one statement whatever their number (one array
 * parameter); `lock` adds a row lock, taken in that order so two such reads cannot deadlock each other.
 */
export async function rowsByIds<R>(
  trx: Knex.Transaction,
  table: string,
  ids: readonly number[],
  lock?: (query: Knex.QueryBuilder) => Knex.QueryBuilder,
): Promise<R[]> {
  if (ids.length === 0) return [];
  const query = trx(table)
    .whereRaw('id = ANY(?::bigint[])', [[...ids]])
    .orderBy('id')
    .select('*');
  return (await (lock ? lock(query) : query)) as R[];
}
