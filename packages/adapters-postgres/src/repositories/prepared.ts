import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { StatementOptions } from '../knex-factory';
import { isStalePreparedStatement } from './pg-errors';

const namesStatements = (client: Knex.Client) => (client.config as Partial<StatementOptions>).namedStatements === true;

/**
 * Runs one statement through Knex's client directly, on the connection of `db` (its transaction's, or one from
 * the pool): the transaction checks, positional bindings, events and error messages stay Knex's, but the query
 * builder and runner, which cost more CPU than the round trip itself, are skipped. Named (when the storage
 * allows it), the statement is prepared once per connection and later runs skip parsing and planning.
 */
export async function execute<R>(
  client: Knex.Client,
  /** Undefined: sent unnamed, planned with its values each time. */
  name: string | undefined,
  sql: string,
  bindings: readonly unknown[],
  /** The transaction's connection, when known: the statement is then sent before this function first yields. */
  known?: unknown,
): Promise<{ rows: R[] }> {
  const connection: unknown = known ?? (await client.acquireConnection());
  const run = () =>
    client.query(connection, {
      sql,
      bindings,
      method: 'raw',
      ...(name !== undefined && namesStatements(client) ? { options: { name: `${name}.${generation}` } } : {}),
    }) as Promise<unknown>;
  try {
    const done = await run().catch((error: unknown) => {
      if (!isStalePreparedStatement(error)) throw error;
      generation++;
      // Inside a transaction the error has aborted it: the caller's transaction fails once, and its retry works.
      if ((client as { transacting?: boolean }).transacting) throw error;
      return run();
    });
    return { rows: (done as { response: { rows: R[] } }).response.rows };
  } finally {
    if (known === undefined) await client.releaseConnection(connection);
  }
}

/**
 * Suffix of every statement name. A migration that changes a table's columns while this process runs makes its
 * statements prepared before it fail ("cached plan must not change result type"); the next generation of names
 * is then prepared afresh on every connection; the failed statement runs again under its new name, unless it
 * was in a transaction, which then fails once (a 5xx, whose idempotency key is released for the retry).
 */
let generation = 0;

/** A hot statement under a fixed `name`; `sql` (with ? placeholders) must be the same text every time. */
export function prepared<R>(db: Knex, name: string, sql: string, bindings: readonly unknown[]): Promise<{ rows: R[] }> {
  return execute<R>(db.client as Knex.Client, name, sql, bindings);
}

/**
 * A built query, named after its SQL text, so each shape of a list query is prepared once per connection. Only
 * for queries whose text has a bounded number of shapes (no IN lists of varying length: see whereIdIn). With
 * `planEach`, for a query whose best plan depends on its values, it is sent unnamed: a prepared statement's plan
 * may become a generic one, chosen over the values seen first (another customer's), and kept.
 */
export async function namedByText<R>(query: Knex.QueryBuilder, planEach = false): Promise<R[]> {
  const { sql, bindings } = query.toSQL();
  const name = planEach ? undefined : `q_${createHash('sha1').update(sql).digest('base64url')}`;
  return (await execute(query.client, name, sql, bindings)).rows as R[];
}
