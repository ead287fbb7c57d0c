import type { Knex } from 'knex';
import type { CommonListFilter, Page, PageRequest } from '@rcs/domain';
import { namedByText } from './prepared';

/** `column` is one of `ids`: one array parameter, so the statement's text does not depend on how many. */
export function whereIdIn(query: Knex.QueryBuilder, column: string, ids: readonly number[]): Knex.QueryBuilder {
  return query.whereRaw('?? = ANY(?::bigint[])', [column, [...ids]]);
}

/** The standard ids / fromDate / toDate filters on a table's id and creation_date (toDate inclusive). */
export function applyCommonFilter(query: Knex.QueryBuilder, filter: CommonListFilter, table: string): Knex.QueryBuilder {
  if (filter.ids !== undefined) whereIdIn(query, `${table}.id`, filter.ids);
  if (filter.fromDate !== undefined) query.where(`${table}.creation_date`, '>=', filter.fromDate);
  if (filter.toDate !== undefined) query.where(`${table}.creation_date`, '<=', filter.toDate);
  return query;
}

/**
 * A page, newest first, and its total, in one round trip: the total is an uncorrelated COUNT subquery, run once,
 * which PostgreSQL can answer from an index alone (a window count over the page query would visit every matching
 * row in the table: 160 to 490 ms at a million receivables, against 1 to 60 ms this way). Only a page past the
 * end, which has no row to carry the total, costs a second statement.
 */
export async function fetchPage<R, T>(
  query: Knex.QueryBuilder,
  table: string,
  page: PageRequest,
  map: (row: R) => T,
  options: { columns?: ReadonlyArray<string | Knex.Raw>; orderBy?: { column: string; order: 'asc' | 'desc' }; tieBreaker?: string } = {},
): Promise<Page<T>> {
  // Lists are newest first unless told otherwise; id (or a table's own unique tieBreaker) breaks ties so pages never overlap.
  const { column, order } = options.orderBy ?? { column: 'creation_date', order: 'desc' };
  const tieBreaker = options.tieBreaker ?? 'id';
  const count = () => query.clone().clearSelect().count({ count: '*' });
  const rows = await namedByText<R & { page_total: string }>(
    query
      .clone()
      .select(`${table}.*`, ...(options.columns ?? []), query.client.raw('(?) AS page_total', [count()]) as Knex.Raw)
      .orderBy([
        { column: `${table}.${column}`, order },
        { column: `${table}.${tieBreaker}`, order },
      ])
      .limit(page.count)
      .offset((page.page - 1) * page.count),
  );
  const total = rows.length > 0 ? rows[0].page_total : (await namedByText<{ count: string }>(count()))[0].count;
  return { items: rows.map(map), total: Number(total) };
}
