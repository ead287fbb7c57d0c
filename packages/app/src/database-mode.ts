import type { Knex } from 'knex';
import { claimDatabaseMode } from '@rcs/adapters-postgres';
import { type AppMode, ConfigError, SANDBOX_CUSTOMER_NAMES } from './config';

/**
 * A database serves the mode that first started on it. Production refuses the sandbox's: its customers' credentials
 * are the README's defaults, public, and would log in to production. The sandbox refuses production's rather than
 * add those customers to it.
 */
export async function checkDatabaseMode(knex: Knex, mode: AppMode): Promise<void> {
  const served = await claimDatabaseMode(knex, mode, SANDBOX_CUSTOMER_NAMES[0]);
  if (served === mode) return;
  throw new ConfigError(
    mode === 'production'
      ? "DATABASE_URL names a database the sandbox set up, holding the sandbox's customers and their credentials: production needs a database of its own"
      : 'DATABASE_URL names a production database: the sandbox would add its customers and their credentials to it; give the sandbox a database of its own',
  );
}
