import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { StatementOptions } from '../knex-factory';

/**
 * A statement prepared once per connection under `name` (a pg named statement): later runs on that connection
 * skip parsing and planning. `sql` must be the same text every time the name is used.
 */
export function prepared(db: Knex, name: string, sql: string, bindings: readonly Knex.Value[]): Knex.Raw {
  const raw = db.raw(sql, bindings);
  return namesStatements(db.client) ? raw.options({ name }) : raw;
}

/**
 * A built query named after its SQL text, so each shape of a list query is prepared once per connection. Only
 * for queries whose text has a bounded number of shapes (no IN lists of varying length: see whereIdIn).
 */
export function namedByText<T extends Knex.QueryBuilder>(query: T): T {
  if (!namesStatements(query.client)) return query;
  const name = `q_${createHash('sha1').update(query.toSQL().sql).digest('base64url')}`;
  return query.options({ name }) as T;
}

const namesStatements = (client: Knex.Client) => (client.config as Partial<StatementOptions>).namedStatements === true;
