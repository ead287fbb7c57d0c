import type { CommonListFilter, Page, PageRequest } from '../../src';

/** The standard ids / fromDate / toDate filters (toDate inclusive). */
export function matchesCommon(row: { id: number; creationDate: Date }, filter: CommonListFilter): boolean {
  return (
    (filter.ids === undefined || filter.ids.includes(row.id)) &&
    (filter.fromDate === undefined || row.creationDate >= filter.fromDate) &&
    (filter.toDate === undefined || row.creationDate <= filter.toDate)
  );
}

/** Newest first, ties broken by id descending, as the SQL lists order. */
export function pageOf<R extends { id: number; creationDate: Date }, T>(rows: R[], page: PageRequest, map: (row: R) => T): Page<T> {
  const sorted = rows.sort((a, b) => b.creationDate.getTime() - a.creationDate.getTime() || b.id - a.id);
  const start = (page.page - 1) * page.count;
  return { items: sorted.slice(start, start + page.count).map(map), total: rows.length };
}
