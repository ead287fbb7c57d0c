import type { Knex } from 'knex';
import type { CommonListFilter, Page, PageKey, PageRequest } from '@rcs/domain';
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

export interface PageOptions {
  readonly columns?: ReadonlyArray<string | Knex.Raw>;
  /** A timestamptz column; creation_date, newest first, unless told. */
  readonly orderBy?: { column: string; order: 'asc' | 'desc' };
  /** A query answering the list's total as `count`, cheaper than counting the matching rows (see list-counts.ts). */
  readonly total?: Knex.QueryBuilder;
}

type Direction = 'asc' | 'desc';
type PageRow = { id: string; page_key: string; page_total?: string };

/** The sort value as exact text (microseconds, UTC): a JavaScript Date would lose the microseconds. */
const KEY_TEXT = `to_char(?? AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS page_key`;

/**
 * A page and its total, at a cost that does not grow with the rows the list holds where the database allows it:
 * - the total comes from `options.total` (a maintained count) when the list has one, else from counting;
 * - page 1 and a page after a key (`page.after`) are one statement, the total a subquery of it, read from the
 *   list's index in order from where the page starts;
 * - page N first reads the total, then skips whichever is shorter: the rows before the page, or, reading the list
 *   backwards, the rows after it (so the last page costs what the first does). The skipped rows are read for
 *   their ids alone, which PostgreSQL can take from the index without visiting the table.
 * A page past the end answers no rows and the total. Rows written between the two statements of page N move it
 * as they would move any page by number; the key of `next` does not move.
 */
export async function fetchPage<R, T>(
  query: Knex.QueryBuilder,
  table: string,
  page: PageRequest,
  map: (row: R) => T,
  options: PageOptions = {},
): Promise<Page<T>> {
  const { column, order } = options.orderBy ?? { column: 'creation_date', order: 'desc' };
  const sortColumn = `${table}.${column}`;
  const idColumn = `${table}.id`;
  const totalQuery = () => options.total?.clone() ?? query.clone().clearSelect().count({ count: '*' });
  const readTotal = async () => Number((await namedByText<{ count: string }>(totalQuery()))[0].count);

  const read = (direction: Direction, limit: number, skip: number, withTotal: boolean) => {
    const rows = query.clone();
    if (page.after !== undefined) {
      const comparison = direction === 'desc' ? '<' : '>';
      rows.whereRaw(`(??, ??) ${comparison} (?::timestamptz, ?::bigint)`, [sortColumn, idColumn, page.after.at, page.after.id]);
    }
    const ordered = (q: Knex.QueryBuilder) =>
      q.orderBy([
        { column: sortColumn, order: direction },
        { column: idColumn, order: direction },
      ]);
    if (skip > 0) rows.whereIn(idColumn, ordered(rows.clone().clearSelect().select(idColumn)).limit(limit).offset(skip));
    rows.select(`${table}.*`, ...(options.columns ?? []), query.client.raw(KEY_TEXT, [sortColumn]) as Knex.Raw);
    if (withTotal) rows.select(query.client.raw('(?) AS page_total', [totalQuery()]) as Knex.Raw);
    return namedByText<R & PageRow>(ordered(rows).limit(limit));
  };
  const answer = (rows: ReadonlyArray<R & PageRow>, total: number, more: boolean): Page<T> => {
    const last = rows.at(-1);
    const next: PageKey | undefined = more && last ? { at: last.page_key, id: Number(last.id) } : undefined;
    return { items: rows.map(map), total, ...(next ? { next } : {}) };
  };

  if (page.after !== undefined || page.page === 1) {
    // One row more than the page tells whether another page follows.
    const rows = await read(order, page.count + 1, 0, true);
    const total = rows.length > 0 ? Number(rows[0].page_total) : await readTotal();
    return answer(rows.slice(0, page.count), total, rows.length > page.count);
  }
  const total = await readTotal();
  const start = (page.page - 1) * page.count;
  if (start >= total) return { items: [], total };
  const end = Math.min(start + page.count, total);
  const rows =
    start <= total - end
      ? await read(order, end - start, start, false)
      : (await read(order === 'desc' ? 'asc' : 'desc', end - start, total - end, false)).reverse();
  return answer(rows, total, end < total);
}
