import 'reflect-metadata';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_PAGE_SIZE, ValidationError, type CommonListFilter, type PageKey, type PageRequest } from '@rcs/domain';
import { allOf } from './all-of';
import { DateOrTimestamp } from './calendar-date';
import { EntityId, idFromText } from './entity-id';
import { PageCursor } from './page-cursor';

/** Ids as `ids=1,2`: each written as an id alone is (`ids=1, 2` is refused, as `clientId=%202` is). */
const toIdList = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.split(',').map(idFromText) : value);

/**
 * Digits only, a minus sign allowed (-1 is then told it must be 1 or more, not that it is no integer): Number()
 * would also read 0x10, 1e1, ' 1' and 10.0 as integers.
 */
const decimalInteger = ({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value);

/** page and count, which every list accepts, and the cursor of a Link header (instead of page). */
export const DEFAULT_COUNT = 20;

/** A page's size: 1 to MAX_PAGE_SIZE, DEFAULT_COUNT unless given. */
export const PageCount = (): PropertyDecorator =>
  allOf(
    IsOptional(),
    Transform(decimalInteger),
    IsInt({ message: 'count must be an integer' }),
    Min(1, { message: 'count must be 1 or more' }),
    Max(MAX_PAGE_SIZE, { message: `count must be at most ${MAX_PAGE_SIZE}` }),
  );

export class PageQuery {
  @IsOptional()
  @Transform(decimalInteger)
  @IsInt({ message: 'page must be an integer' })
  @Min(1, { message: 'page must be 1 or more' })
  // Beyond it, the page's offset would reach the database in exponent notation, which it cannot read.
  @Max(Number.MAX_SAFE_INTEGER, { message: `page must be at most ${Number.MAX_SAFE_INTEGER}` })
  page?: number;

  @PageCount()
  count?: number;

  @IsOptional()
  @PageCursor()
  cursor?: PageKey;
}

/** page, count and the standard filters (ids, creation-date window) of SPEC "Common conventions". */
export class ListQuery extends PageQuery {
  @IsOptional()
  @Transform(toIdList)
  @EntityId({ each: true, message: 'ids must be comma-separated positive integers' })
  ids?: number[];

  @IsOptional()
  @DateOrTimestamp()
  fromDate?: string;

  @IsOptional()
  @DateOrTimestamp()
  toDate?: string;
}

/**
 * A date without time is a calendar day in Buenos Aires (UTC-03:00, no daylight saving): fromDate starts it,
 * toDate includes all of it. Instants are kept to the millisecond: an instant sent with finer digits (Python's
 * microseconds) bounds the same rows as the millisecond at or after it for fromDate, at or before it for toDate.
 */
export function boundary(value: string, edge: 'start' | 'end'): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return new Date(`${value}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}-03:00`);
  }
  const [, millis, finer] = /\.(\d{1,3})(\d*)/.exec(value) ?? [];
  const instant = new Date(finer ? value.replace(`.${millis}${finer}`, `.${millis}`) : value);
  return edge === 'start' && /[1-9]/.test(finer ?? '') ? new Date(instant.getTime() + 1) : instant;
}

export function pageOf(query: PageQuery): PageRequest {
  // A cursor says where the page starts, as page does: both at once is a question with two answers.
  if (query.cursor !== undefined && query.page !== undefined) throw ValidationError.of('page', 'cannot be given with cursor');
  return { page: query.page ?? 1, count: query.count ?? DEFAULT_COUNT, ...(query.cursor ? { after: query.cursor } : {}) };
}

export function commonFilterOf(query: ListQuery): CommonListFilter {
  return {
    ...(query.ids ? { ids: query.ids } : {}),
    ...(query.fromDate ? { fromDate: boundary(query.fromDate, 'start') } : {}),
    ...(query.toDate ? { toDate: boundary(query.toDate, 'end') } : {}),
  };
}
