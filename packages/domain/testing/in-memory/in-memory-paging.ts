import type { CommonListFilter, Page, PageRequest } from '../../src';

/** The standard ids / fromDate / toDate filters (toDate inclusive). */
export function matchesCommon(row: { id: number; creationDate: Date }, filter: CommonListFilter): boolean {
  return (
    (filter.ids === undefined || filter.ids.includes(row.id)) &&
    (filter.fromDate === undefined || row.creationDate >= filter.fromDate) &&
    (filter.toDate === undefined || row.creationDate <= filter.toDate)
  );
}

/**
 * A page of `rows` in the SQL lists' order: by `sortKey` (creation date unless told), ties broken by id in the
 * same direction, newest first unless `order` is 'asc'; from `page.after` when given, else from `page.page`.
 */
export function pageOf<R extends { id: number }, T>(
  rows: R[],
  page: PageRequest,
  map: (row: R) => T,
  sortKey: (row: R) => Date = (row) => (row as R & { creationDate: Date }).creationDate,
  order: 'asc' | 'desc' = 'desc',
): Page<T> {
  const sign = order === 'asc' ? 1 : -1;
  const compare = (a: { at: number; id: number }, b: { at: number; id: number }) => (a.at - b.at || a.id - b.id) * sign;
  const keyOf = (row: R) => ({ at: sortKey(row).getTime(), id: row.id });
  const sorted = rows.sort((a, b) => compare(keyOf(a), keyOf(b)));
  const after = page.after && { at: new Date(page.after.at).getTime(), id: page.after.id };
  const start = after ? sorted.findIndex((row) => compare(keyOf(row), after) > 0) : (page.page - 1) * page.count;
  const slice = start < 0 ? [] : sorted.slice(start, start + page.count);
  const last = slice.at(-1);
  const more = start >= 0 && start + page.count < sorted.length;
  return { items: slice.map(map), total: rows.length, ...(more && last ? { next: { at: sortKey(last).toISOString(), id: last.id } } : {}) };
}
