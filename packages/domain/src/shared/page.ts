export interface PageRequest {
  /** 1-indexed. */
  readonly page: number;
  readonly count: number;
}

export interface Page<T> {
  readonly items: readonly T[];
  /** Every matching item, not the page size (X-Total-Count). */
  readonly total: number;
}

/** Creation-date window and id list shared by every list filter (SPEC "Standard filters"). */
export interface CommonListFilter {
  readonly ids?: readonly number[];
  readonly fromDate?: Date;
  readonly toDate?: Date;
}

export const DEFAULT_PAGE: PageRequest = { page: 1, count: 20 };
export const MAX_PAGE_SIZE = 200;
