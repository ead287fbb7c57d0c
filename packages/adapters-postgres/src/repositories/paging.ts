import type { Knex } from 'knex';
import type { CommonListFilter, Page, PageRequest } from '@rcs/domain';

/** The standard ids / fromDate / toDate filters on a table's id and creation_date (toDate inclusive). */
export function applyCommonFilter(query: Knex.QueryBuilder, filter: CommonListFilter, table: string): Knex.QueryBuilder {
  if (filter.ids !== undefined) query.whereIn(`${table}.id`, [...filter.ids]);
  if (filter.fromDate !== undefined) query.where(`${table}.creation_date`, '>=', filter.fromDate);
  if (filter.toDate !== undefined) query.where(`${table}.creation_date`, '<=', filter.toDate);
  return query;
}

/**
 * One round trip for a page and its total (a window count), newest first. Only a page past the end needs a
 * second query, since it has no row to carry the total.
 */
export async function fetchPage<R, T>(
  query: Knex.QueryBuilder,
  table: string,
  page: PageRequest,
  map: (row: R) => T,
  extraColumns: ReadonlyArray<string | Knex.Raw> = [],
): Promise<Page<T>> {
  const rows: Array<R & { total_count: string }> = await query
    .clone()
    .select(`${table}.*`, ...extraColumns, query.client.raw('count(*) OVER () AS total_count'))
    .orderBy([
      { column: `${table}.creation_date`, order: 'desc' },
      { column: `${table}.id`, order: 'desc' },
    ])
    .limit(page.count)
    .offset((page.page - 1) * page.count);
  if (rows.length > 0) return { items: rows.map(map), total: Number(rows[0].total_count) };
  if (page.page === 1) return { items: [], total: 0 };
  const [{ count }] = await query.clone().count({ count: '*' });
  return { items: [], total: Number(count) };
}
