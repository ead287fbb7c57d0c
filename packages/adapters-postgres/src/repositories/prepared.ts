import type { Knex } from 'knex';
import type { StatementOptions } from '../knex-factory';

/**
 * A statement prepared once per connection under `name` (a pg named statement): later runs on that connection
 * skip parsing and planning. `sql` must be the same text every time the name is used.
 */
export function prepared(db: Knex, name: string, sql: string, bindings: readonly Knex.Value[]): Knex.Raw {
  const raw = db.raw(sql, bindings);
  return (db.client.config as Partial<StatementOptions>).namedStatements ? raw.options({ name }) : raw;
}
