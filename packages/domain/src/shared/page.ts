/**
 * Where a page starts in a list's order: after the item whose sort value is `at` (the adapter's exact text of it)
 * and whose id is `id`. Each page that has a successor names it, so a client walking a list pays the same for
 * every page however deep (keyset paging), where `page` has the database skip every earlier row.
 */
export interface PageKey {
  readonly at: string;
  readonly id: number;
}

export interface PageRequest {
  /** 1-indexed; ignored when `after` is given. */
  readonly page: number;
  readonly count: number;
  readonly after?: PageKey;
}

export interface Page<T> {
  readonly items: readonly T[];
  /** Every matching item, not the page size (X-Total-Count). */
  readonly total: number;
  /** Where the next page starts; absent on the last page. */
  readonly next?: PageKey;
}

/** Creation-date window and id list shared by every list filter (SPEC "Standard filters"). */
export interface CommonListFilter {
  readonly ids?: readonly number[];
  readonly fromDate?: Date;
  readonly toDate?: Date;
}

export const DEFAULT_PAGE: PageRequest = { page: 1, count: 20 };
export const MAX_PAGE_SIZE = 200;
