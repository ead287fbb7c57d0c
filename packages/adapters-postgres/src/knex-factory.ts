import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { IDEMPOTENCY_WAIT_MS, parseExactJson } from '@rcs/domain';
import { PipelinedPostgresClient } from './pipelined-postgres-client';

// DATE columns stay 'YYYY-MM-DD' strings: pg would turn them into local-midnight Dates and shift the day.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);
// JSON columns (event payloads) keep the text as written, sums past a double's digits included: JSON.parse would
// round them, and a webhook or /v1/events would carry another amount than the ledger's.
pg.types.setTypeParser(pg.types.builtins.JSON, parseExactJson);

export interface DatabaseOptions {
  readonly url: string;
  /** Schema to work in (tests give each file its own); defaults to the server's search_path. */
  readonly schema?: string;
  readonly poolSize?: number;
  /** How long a statement may wait for a row lock before failing; by default CONTRACT's wait for a key in use. */
  readonly lockTimeoutMs?: number;
  /**
   * PGlite behind its socket: every connection shares its one session, so a statement prepared under a name by
   * one connection collides with the next connection's. Named statements are then not used.
   */
  readonly embedded?: boolean;
}

/** What `prepared` (repositories/prepared.ts) reads from a Knex instance's config. */
export interface StatementOptions {
  readonly namedStatements: boolean;
}

/**
 * The one Knex instance of a process. BIGINT, NUMERIC and COUNT come back as strings: mappers parse ids with
 * Number (always below 2^53) and money with BigInt, deliberately.
 */
export function createDatabase(options: DatabaseOptions): Knex {
  const lockTimeout = options.lockTimeoutMs ?? IDEMPOTENCY_WAIT_MS;
  const config: Knex.Config & StatementOptions = {
    namedStatements: !options.embedded,
    client: PipelinedPostgresClient as unknown as typeof Knex.Client,
    // Pipelining lets a transaction's statements whose answers nobody waits for go out together (see
    // transaction-writes.ts); PGlite's socket serves one message exchange at a time, so not there.
    connection: { connectionString: options.url, pipeline: !options.embedded } as Knex.PgConnectionConfig,
    searchPath: options.schema ? [options.schema] : undefined,
    pool: {
      min: 0,
      max: options.poolSize ?? 10,
      // No JIT: it compiles a plan whose estimated cost passes jit_above_cost, and a list page's plan is estimated
      // over every row of the ranges it could read, though it reads a page of them (the last page of a customer's
      // million receivables: 13 ms compiling for 0.2 ms of work). Every statement here reads or writes few rows.
      afterCreate: (connection: pg.Client, done: (error: Error | null, connection: pg.Client) => void) => {
        connection.query(`SELECT set_config('lock_timeout', '${Math.floor(lockTimeout)}', false), set_config('jit', 'off', false)`, (error) =>
          done(error ?? null, connection),
        );
      },
    },
    migrations: { tableName: 'knex_migrations' },
  };
  return knexFactory(config);
}
