import type { Knex } from 'knex';
import * as foundation from './001-foundation';
import * as receivableAccounts from './002-receivable-accounts';
import * as receivables from './003-receivables';
import * as ledger from './004-ledger-and-settlements';
import * as providerReferences from './005-provider-references';
import { pgCode } from '../repositories/pg-errors';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Migrations are imported, not read from disk, so compiled output and tests run the same list. */
const MIGRATIONS: ReadonlyArray<readonly [string, Migration]> = [
  ['001-foundation', foundation],
  ['002-receivable-accounts', receivableAccounts],
  ['003-receivables', receivables],
  ['004-ledger-and-settlements', ledger],
  ['005-provider-references', providerReferences],
];

/** Every migration's name, in order. */
export const MIGRATION_NAMES: readonly string[] = MIGRATIONS.map(([name]) => name);

export const migrationSource: Knex.MigrationSource<readonly [string, Migration]> = {
  getMigrations: async () => [...MIGRATIONS],
  getMigrationName: ([name]) => name,
  getMigration: async ([, migration]) => migration,
};

const LOCK_RETRY_MS = 200;
const LOCK_RETRIES = 150;

/**
 * Failures of a start-up race, not of a migration: knex's lock held by the other instance, or both creating
 * knex's bookkeeping tables at the same moment (duplicate catalog entry, table, or the table's row type).
 */
function isStartupRace(error: unknown): boolean {
  return (error as Error).name === 'MigrationLocked' || ['23505', '42P07', '42710'].includes(pgCode(error) ?? '');
}

/**
 * Brings the schema up to date. Two instances starting together both call this: one runs the migrations, the
 * other waits and tries again (then finds nothing to do).
 */
export async function migrateToLatest(knex: Knex): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await knex.migrate.latest({ migrationSource });
      return;
    } catch (error) {
      if (!isStartupRace(error) || attempt >= LOCK_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
    }
  }
}
