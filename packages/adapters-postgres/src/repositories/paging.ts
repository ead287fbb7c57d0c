import type { Knex } from 'knex';
import type { CommonListFilter, Page, PageKey, PageRequest } from '@rcs/domain';
import type { RowCount } from './list-counts';
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
 * count(*) of `query`'s rows, narrowed by a caller. With every value of the branches' column named, a count reads
 * the index the branches read (their ranges, index only) instead of the table: a creation-date window over a
 * million rows otherwise counted them all.
 */
export function rowCount(query: Knex.QueryBuilder, table: string, branches?: PageOptions['branches']): RowCount {
  return (narrow) => {
    const rows = query.clone().clearSelect();
    if (branches) rows.whereRaw('?? = ANY(?::text[])', [`${table}.${branches.column}`, [...branches.values]]);
    narrow(rows);
    return rows.count({ count: '*' });
  };
}

/**
 * `column` = `value`, written as a range of one value, for a list whose order then leads with `column` (PageOptions
 * oneValueOf): only an index leading with it (after equalities) gives that order. Written with `=`, PostgreSQL drops
 * the column from the order as a constant and may read an index of the sort column alone, filtering out the other
 * values row by row: the newest event of a common type, behind a burst of events of another, read the whole burst.
 */
export function whereOneValue(query: Knex.QueryBuilder, column: string, value: string): Knex.QueryBuilder {
  return query.where(column, '>=', value).where(column, '<=', value);
}

export interface PageOptions {
  readonly columns?: ReadonlyArray<string | Knex.Raw>;
  /** A timestamptz column; creation_date, newest first, unless told. */
  readonly orderBy?: { column: string; order: 'asc' | 'desc' };
  /** The unique column breaking ties of the sort column (and keying pages with it): id unless told. */
  readonly tieBreaker?: string;
  /**
   * A column the query holds one value of through whereOneValue, ordered by first (see whereOneValue), and the
   * order in which the index leading with it holds the sort column (it holds the column itself ascending): the
   * order by both must be one that index gives, read forwards or backwards.
   */
  readonly oneValueOf?: { readonly column: string; readonly indexOrder: 'asc' | 'desc' };
  /** A query answering the list's total as `count`, cheaper than counting the matching rows (see list-counts.ts). */
  readonly total?: Knex.QueryBuilder;
  /**
   * Its best plan depends on the values (a range of a column other than the sort's: due dates, amounts): each
   * statement is planned with them, never kept as a generic plan that fits another customer's rows (a due-date
   * range over 600,000 rows took 4 to 7 s under one chosen for customers of ten).
   */
  readonly planEach?: boolean;
  /**
   * Read as one ordered range per value of `column`, merged in order (a Merge Append): for a list whose index
   * leads with its filters and then `column`, which serves it with or without a value of `column`. PostgreSQL
   * merges only subqueries that each have their own ORDER BY, so each range is one.
   */
  readonly branches?: { readonly column: string; readonly values: readonly string[] };
}

type Direction = 'asc' | 'desc';
type PageRow = { page_tie: string; page_key: string; page_total?: string };

/**
 * Row limits (a page's count + 1) written into a counted list's statement instead of bound. A bound LIMIT makes
 * PostgreSQL cost the generic plan as if it read a tenth of the rows, so it mostly planned every execution afresh,
 * about four fifths of such a page's database time; written, the generic plan costs what it reads and is kept
 * after five executions. Only lists with a maintained total and not `planEach` (no range but on the sort column),
 * whose plans read the list's index in order whatever the values, and only common page sizes, so that a connection
 * holds a bounded number of statements whatever counts clients ask for; other limits are bound.
 */
const WRITTEN_LIMITS: ReadonlySet<number> = new Set([11, 21, 51, 101, 201]);

/** The sort value as exact text (microseconds, UTC): a JavaScript Date would lose the microseconds. */
const KEY_TEXT = `to_char(?? AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS page_key, ?? AS page_tie`;

/**
 * A page and its total, at a cost that does not grow with the rows the list holds where the database allows it,
 * each in one statement:
 * - the total comes from `options.total` (a maintained count) when the list has one, else from counting;
 * - page 1 and the page after a key (`page.after`) read the list's index in order from where the page starts;
 * - page N skips whichever is shorter, the rows before the page or, reading the list backwards, the rows after
 *   it (so the last page costs what the first does); both reads are in the statement, and the total, read first,
 *   lets only one of them run. The skipped rows are read for their ids alone, which PostgreSQL takes from the
 *   index without visiting the table.
 * A page past the end answers no rows, and the total from a second statement.
 */
export async function fetchPage<R, T>(
  query: Knex.QueryBuilder,
  table: string,
  page: PageRequest,
  map: (row: R) => T,
  options: PageOptions = {},
): Promise<Page<T>> {
  const { column, order } = options.orderBy ?? { column: 'creation_date', order: 'desc' };
  const backwards: Direction = order === 'desc' ? 'asc' : 'desc';
  const sortColumn = `${table}.${column}`;
  const idColumn = `${table}.${options.tieBreaker ?? 'id'}`;
  const raw = (sql: string, bindings: readonly Knex.RawBinding[]) => query.client.raw(sql, bindings) as Knex.Raw;
  const keepsPlan = options.total !== undefined && options.planEach !== true;
  const limited = (q: Knex.QueryBuilder, limit: number) => (keepsPlan && WRITTEN_LIMITS.has(limit) ? q.limit(limit, { skipBinding: true }) : q.limit(limit));
  const totalQuery = () => options.total?.clone() ?? rowCount(query, table, options.branches)(() => {});
  const ordered = (q: Knex.QueryBuilder, direction: Direction) =>
    q.orderBy([
      ...(options.oneValueOf === undefined
        ? []
        : [{ column: `${table}.${options.oneValueOf.column}`, order: direction === options.oneValueOf.indexOrder ? 'asc' : 'desc' }]),
      { column: sortColumn, order: direction },
      { column: idColumn, order: direction },
    ]);
  /** `rows` (ordered by `direction` and selecting `select`), or the merge of its ranges, as `table`, up to `limit` from each. */
  const merged = (rows: Knex.QueryBuilder, direction: Direction, select: ReadonlyArray<string | Knex.Raw>, limit?: number) => {
    if (options.branches === undefined) return ordered(rows.select(...select), direction);
    const { column, values } = options.branches;
    const ranges = values.map((value) => {
      const range = ordered(
        rows
          .clone()
          .where(`${table}.${column}`, value)
          .select(...select),
        direction,
      );
      return limit === undefined ? range : limited(range, limit);
    });
    return ordered(
      rows.client
        .queryBuilder()
        .from(raw(`(${ranges.map(() => '(?)').join(' UNION ALL ')}) AS ??`, [...ranges, table]))
        .select('*'),
      direction,
    );
  };
  /**
   * The page's rows: the first `limit` of `rows` in `direction` (the list's order unless told), or, without a
   * limit, rows already picked by id (unmerged).
   */
  const pageRows = (rows: Knex.QueryBuilder, total: Knex.Raw, limit?: number, direction: Direction = order) => {
    const columns = [`${table}.*`, ...(options.columns ?? [])];
    const page = limit === undefined ? ordered(rows.select(...columns), order) : limited(merged(rows, direction, columns, limit), limit);
    return namedByText<R & PageRow>(page.select(raw(KEY_TEXT, [sortColumn, idColumn]), raw('(?) AS page_total', [total])), options.planEach);
  };
  const answer = (rows: ReadonlyArray<R & PageRow>, total: number, more: boolean): Page<T> => {
    const last = rows.at(-1);
    const next: PageKey | undefined = more && last ? { at: last.page_key, id: Number(last.page_tie) } : undefined;
    return { items: rows.map(map), total, ...(next ? { next } : {}) };
  };
  /** The first page's rows of `rows` read in `direction`, and one more, which tells whether another page follows. */
  const firstRows = (rows: Knex.QueryBuilder, direction: Direction = order) => pageRows(rows, raw('?', [totalQuery()]), page.count + 1, direction);
  const readTotal = async () => Number((await namedByText<{ count: string }>(totalQuery(), options.planEach))[0].count);

  if (page.after !== undefined || page.page === 1) {
    const rows = query.clone();
    if (page.after !== undefined) {
      const comparison = order === 'desc' ? '<' : '>';
      rows.whereRaw(`(??, ??) ${comparison} (?::timestamptz, ?::bigint)`, [sortColumn, idColumn, page.after.at, page.after.id]);
    }
    const read = await firstRows(rows);
    const total = read.length > 0 ? Number(read[0].page_total) : await readTotal();
    return answer(read.slice(0, page.count), total, read.length > page.count);
  }
  const start = (page.page - 1) * page.count;
  const end = start + page.count;
  if (keepsPlan) {
    // Read first as the last page, which is the list's end read backwards as page 1 reads its start (the same kept
    // plan, no skip), with its maintained total: one cheap statement, and the total says whether it was the page.
    const read = await firstRows(query.clone(), backwards);
    const total = read.length > 0 ? Number(read[0].page_total) : 0;
    if (end >= total) return answer(read.slice(0, Math.max(0, total - start)).reverse(), total, false);
  }
  // Merged ranges are ordered by their sort columns outside too, so each range gives them.
  const idColumns = [...(options.branches ? [sortColumn, idColumn] : []), `${idColumn} as page_tie`];
  const ids = (direction: Direction) => merged(query.clone().clearSelect(), direction, idColumns);
  // Rows after the page, once the total is known: the shorter skip is forwards when start <= after.
  const after = `(SELECT count - LEAST(?::bigint, count) FROM page_total)`;
  const window = raw(
    `SELECT page_tie FROM (? LIMIT ?::bigint OFFSET ?::bigint) forwards WHERE ?::bigint <= ${after}
     UNION ALL
     SELECT page_tie FROM (? LIMIT (SELECT GREATEST(0, LEAST(?::bigint, count) - ?::bigint) FROM page_total) OFFSET ${after}) backwards
     WHERE ?::bigint > ${after}`,
    [ids(order), page.count, start, start, end, ids(backwards), end, start, end, start, end],
  );
  // ANY(ARRAY(...)), not IN: the planner cannot tell how few ids the window gives, and for IN would read every
  // matching row to join them; an array of ids it reads by primary key.
  const read = await pageRows(
    query.clone().with('page_total', totalQuery()).whereRaw('?? = ANY(ARRAY(?))', [idColumn, window]),
    raw('SELECT count FROM page_total', []),
  );
  if (read.length === 0) return { items: [], total: await readTotal() };
  const total = Number(read[0].page_total);
  return answer(read, total, start + read.length < total);
}
