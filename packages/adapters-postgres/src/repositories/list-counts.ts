import type { Knex } from 'knex';

/**
 * A list whose totals list_counts keeps (see migrations/counted-lists.ts): for the customer, or one scope, each
 * with or without the counted column's filter. `scopes` names the filter member that selects each scope, `status`
 * the member filtering on the counted column (`status` unless told; none for a list counted without one).
 * `unfiltering` names members that select no rows of their own, so the counts answer whatever they hold: the
 * order of a list, or what another member already implies (a movement's accountKind, implied by its accountId).
 */
export interface CountedList<F> {
  readonly list: string;
  readonly scopes: Partial<Record<keyof F, string>>;
  readonly status?: keyof F | null;
  readonly unfiltering?: ReadonlyArray<keyof F>;
}

/**
 * The maintained total of `filter`, as `count`, when the filter is the customer's plus at most one scope and the
 * counted column; undefined for any other filter (which counts its rows). The slots of the count are summed: a
 * few rows of an index, however many the list holds.
 */
export function maintainedTotal<F extends { readonly customerId: number }>(db: Knex, counted: CountedList<F>, filter: F): Knex.QueryBuilder | undefined {
  const statusMember = counted.status === undefined ? 'status' : counted.status;
  let scope = 'customer';
  let scopeId = 0;
  let status: string | undefined;
  for (const [member, value] of Object.entries(filter) as Array<[keyof F, unknown]>) {
    if (value === undefined || member === 'customerId' || counted.unfiltering?.includes(member)) continue;
    if (member === statusMember) {
      status = value as string;
      continue;
    }
    const named = counted.scopes[member];
    if (named === undefined || scope !== 'customer') return undefined;
    scope = named;
    scopeId = value as number;
  }
  const total = db('list_counts').where({ list: counted.list, customer_id: filter.customerId, scope, scope_id: scopeId });
  if (status !== undefined) total.where('status', status);
  return total.select(db.raw('COALESCE(sum(n), 0) AS count'));
}
