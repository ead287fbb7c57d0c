import type { Knex } from 'knex';

/**
 * A list whose totals list_counts keeps (see migrations/counted-lists.ts): for the customer, or one scope, each
 * with or without status. `scopes` names the filter member that selects each scope.
 */
export interface CountedList<F> {
  readonly list: string;
  readonly scopes: Partial<Record<keyof F, string>>;
}

/**
 * The maintained total of `filter`, as `count`, when the filter is the customer's plus at most one scope and a
 * status; undefined for any other filter (which counts its rows). The slots of the count are summed: a few rows
 * of an index, however many the list holds.
 */
export function maintainedTotal<F extends { readonly customerId: number; readonly status?: string }>(
  db: Knex,
  counted: CountedList<F>,
  filter: F,
): Knex.QueryBuilder | undefined {
  let scope = 'customer';
  let scopeId = 0;
  for (const [member, value] of Object.entries(filter) as Array<[keyof F, unknown]>) {
    if (value === undefined || member === 'customerId' || member === 'status') continue;
    const named = counted.scopes[member];
    if (named === undefined || scope !== 'customer') return undefined;
    scope = named;
    scopeId = value as number;
  }
  const total = db('list_counts').where({ list: counted.list, customer_id: filter.customerId, scope, scope_id: scopeId });
  if (filter.status !== undefined) total.where('status', filter.status);
  return total.select(db.raw('COALESCE(sum(n), 0) AS count'));
}
