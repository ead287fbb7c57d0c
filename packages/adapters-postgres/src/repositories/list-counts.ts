import type { Knex } from 'knex';

/**
 * A date window a list's counts keep by bucket (migration 042): its filter members, the column they bound, and the
 * bucket scope counting the whole customer's rows by that column's day (a date column, filtered by whole days) or
 * hour (a timestamp, filtered by instants).
 */
export interface CountedWindow<F> {
  readonly from: keyof F;
  readonly to: keyof F;
  readonly column: string;
  readonly scope: string;
  readonly unit: 'day' | 'hour';
}

/**
 * A list whose totals list_counts keeps (see migrations/counted-lists.ts): for the customer, or one scope, each
 * with or without the counted column's filter. `scopes` names the filter member that selects each scope, `status`
 * the member filtering on the counted column (`status` unless told; none for a list counted without one).
 * `unfiltering` names members that select no rows of their own, so the counts answer whatever they hold: the
 * order of a list, or what another member already implies (a movement's accountKind, implied by its accountId).
 * `windows`, the date windows of the whole customer's list counted by bucket.
 */
export interface CountedList<F> {
  readonly list: string;
  readonly scopes: Partial<Record<keyof F, string>>;
  readonly status?: keyof F | null;
  readonly unfiltering?: ReadonlyArray<keyof F>;
  readonly windows?: ReadonlyArray<CountedWindow<F>>;
}

/** count(*) of a list's matching rows narrowed by `narrow` (paging.ts's rowCount, which reads them by the list's index). */
export type RowCount = (narrow: (rows: Knex.QueryBuilder) => void) => Knex.QueryBuilder;

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Where a window's buckets start and end, and the rows at its edges outside a whole bucket, counted. */
interface Span {
  readonly first?: number;
  /** Exclusive. */
  readonly end?: number;
  readonly edges: ReadonlyArray<(rows: Knex.QueryBuilder) => void>;
}

/**
 * The buckets wholly inside `[from, to]`: days for a date column (its bounds are days), hours for a timestamp, whose
 * bounds may fall inside an hour: the rows between a bound and the nearest whole hour are counted (an hour's rows at
 * most, each side). Undefined when no hour is whole inside the window: counting its rows reads two hours at most.
 */
function spanOf({ unit, column }: Pick<CountedWindow<unknown>, 'unit' | 'column'>, from: unknown, to: unknown): Span | undefined {
  if (unit === 'day') {
    const day = (value: unknown) => Date.parse(`${value as string}T00:00:00Z`) / DAY_MS;
    return { first: from === undefined ? undefined : day(from), end: to === undefined ? undefined : day(to) + 1, edges: [] };
  }
  const first = from === undefined ? undefined : Math.ceil((from as Date).getTime() / HOUR_MS);
  const end = to === undefined ? undefined : Math.floor((to as Date).getTime() / HOUR_MS);
  if (first !== undefined && end !== undefined && first >= end) return undefined;
  const edges: Array<(rows: Knex.QueryBuilder) => void> = [];
  if (first !== undefined && first * HOUR_MS !== (from as Date).getTime()) edges.push((rows) => void rows.where(column, '<', new Date(first * HOUR_MS)));
  if (end !== undefined) edges.push((rows) => void rows.where(column, '>=', new Date(end * HOUR_MS)));
  return { first, end, edges };
}

/**
 * The maintained total of `filter`, as `count`, when the filter is the customer's plus at most one scope and the
 * counted column, or the customer's, the counted column and one of `windows` (which needs `rows` to count a
 * window's edges); undefined for any other filter (which counts its rows). The slots of the count are summed: a
 * few rows of an index, however many the list holds, and a few a bucket for a window.
 */
export function maintainedTotal<F extends { readonly customerId: number }>(
  db: Knex,
  counted: CountedList<F>,
  filter: F,
  rows?: RowCount,
): Knex.QueryBuilder | undefined {
  const statusMember = counted.status === undefined ? 'status' : counted.status;
  let scope = 'customer';
  let scopeId = 0;
  let status: string | undefined;
  let window: CountedWindow<F> | undefined;
  for (const [member, value] of Object.entries(filter) as Array<[keyof F, unknown]>) {
    if (value === undefined || member === 'customerId' || counted.unfiltering?.includes(member)) continue;
    if (member === statusMember) {
      status = value as string;
      continue;
    }
    const bounded = counted.windows?.find((w) => w.from === member || w.to === member);
    if (bounded !== undefined && (window === undefined || window === bounded)) {
      window = bounded;
      continue;
    }
    const named = counted.scopes[member];
    if (named === undefined || scope !== 'customer') return undefined;
    scope = named;
    scopeId = value as number;
  }
  if (window !== undefined) return scope === 'customer' ? windowTotal(db, counted.list, window, filter, status, rows) : undefined;
  const total = db('list_counts').where({ list: counted.list, customer_id: filter.customerId, scope, scope_id: scopeId });
  if (status !== undefined) total.where('status', status);
  return total.select(db.raw('COALESCE(sum(n), 0) AS count'));
}

/** The whole customer's rows in `window`: its whole buckets' counts summed, plus its edges' rows counted. */
function windowTotal<F extends { readonly customerId: number }>(
  db: Knex,
  list: string,
  window: CountedWindow<F>,
  filter: F,
  status: string | undefined,
  rows: RowCount | undefined,
): Knex.QueryBuilder | undefined {
  const span = spanOf(window, filter[window.from], filter[window.to]);
  if (span === undefined || (span.edges.length > 0 && rows === undefined)) return undefined;
  const buckets = db('list_counts').where({ list, customer_id: filter.customerId, scope: window.scope });
  if (span.first !== undefined) buckets.where('scope_id', '>=', span.first);
  if (span.end !== undefined) buckets.where('scope_id', '<', span.end);
  if (status !== undefined) buckets.where('status', status);
  const parts = [buckets.select(db.raw('COALESCE(sum(n), 0)')), ...span.edges.map((edge) => rows!(edge))];
  return db.queryBuilder().select(db.raw(`${parts.map(() => '(?)').join(' + ')} AS count`, parts));
}
