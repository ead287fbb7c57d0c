import type { Knex } from 'knex';
import * as foundation from './001-foundation';
import * as receivableAccounts from './002-receivable-accounts';
import * as receivables from './003-receivables';
import * as ledger from './004-ledger-and-settlements';
import * as providerReferences from './005-provider-references';
import * as payloadsAsJson from './006-payloads-as-json';
import * as disabledReason from './007-disabled-reason';
import * as aliasesAnyCase from './008-aliases-any-case';
import * as contacts from './009-contacts';
import * as transfers from './010-transfers';
import * as webhooks from './011-webhooks';
import * as events from './012-events';
import * as listCounts from './013-list-counts';
import * as transferPayouts from './014-transfer-payouts';
import * as webhookDelivery from './015-webhook-delivery';
import * as leanCreation from './016-lean-creation';
import * as outflowListCounts from './018-outflow-list-counts';
import * as testAttemptsByAge from './020-test-attempts-by-age';
import * as secretsInGrace from './021-secrets-in-grace';
import * as deletedWebhookCounts from './022-deleted-webhook-counts';
import * as dueAttemptsByWebhook from './023-due-attempts-by-webhook';
import * as webhookNextDue from './024-webhook-next-due';
import * as countsInScopeOrder from './025-counts-in-scope-order';
import * as expiryByCustomer from './026-expiry-by-customer';
import * as ledgerAndPartyCounts from './027-ledger-and-party-counts';
import * as maintainedPendingAmounts from './028-maintained-pending-amounts';
import * as transfersDueByDay from './029-transfers-due-by-day';
import * as receivablesOfOtherTypes from './030-receivables-of-other-types';
import * as sumsWithoutOverflow from './031-sums-without-overflow';
import * as pendingAmountsAsSums from './032-pending-amounts-as-sums';
import * as provisioningQueueInOrder from './033-provisioning-queue-in-order';
import * as webhookHistoryPurgedAfterDeletion from './034-webhook-history-purged-after-deletion';
import * as childrenExpire from './035-children-expire';
import * as movementsByKind from './036-movements-by-kind';
import * as transfersAwaitingAlias from './037-transfers-awaiting-alias';
import * as accountsByOwnerInOrder from './038-accounts-by-owner-in-order';
import * as clientsByBranch from './039-clients-by-branch';
import * as statusWithinAccountAndType from './040-status-within-account-and-type';
import * as retryScheduleSteps from './041-retry-schedule-steps';
import * as windowCounts from './042-window-counts';
import * as aliasClaims from './043-alias-claims';
import * as payableTransfers from './044-payable-transfers';
import * as foldOnlySlotZero from './045-fold-only-slot-zero';
import * as webhookDeletionsRecorded from './046-webhook-deletions-recorded';
import * as attemptsKeepTheirPlace from './047-attempts-keep-their-place';
import * as eventFeedOrder from './048-event-feed-order';
import pg from 'pg';
import { adoptFeedServer } from '../event-feed-server';

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
  ['006-payloads-as-json', payloadsAsJson],
  ['007-disabled-reason', disabledReason],
  ['008-aliases-any-case', aliasesAnyCase],
  ['009-contacts', contacts],
  ['010-transfers', transfers],
  ['011-webhooks', webhooks],
  ['012-events', events],
  ['013-list-counts', listCounts],
  ['014-transfer-payouts', transferPayouts],
  ['015-webhook-delivery', webhookDelivery],
  ['016-lean-creation', leanCreation],
  ['018-outflow-list-counts', outflowListCounts],
  ['020-test-attempts-by-age', testAttemptsByAge],
  ['021-secrets-in-grace', secretsInGrace],
  ['022-deleted-webhook-counts', deletedWebhookCounts],
  ['023-due-attempts-by-webhook', dueAttemptsByWebhook],
  ['024-webhook-next-due', webhookNextDue],
  ['025-counts-in-scope-order', countsInScopeOrder],
  ['026-expiry-by-customer', expiryByCustomer],
  ['027-ledger-and-party-counts', ledgerAndPartyCounts],
  ['028-maintained-pending-amounts', maintainedPendingAmounts],
  ['029-transfers-due-by-day', transfersDueByDay],
  ['030-receivables-of-other-types', receivablesOfOtherTypes],
  ['031-sums-without-overflow', sumsWithoutOverflow],
  ['032-pending-amounts-as-sums', pendingAmountsAsSums],
  ['033-provisioning-queue-in-order', provisioningQueueInOrder],
  ['034-webhook-history-purged-after-deletion', webhookHistoryPurgedAfterDeletion],
  ['035-children-expire', childrenExpire],
  ['036-movements-by-kind', movementsByKind],
  ['037-transfers-awaiting-alias', transfersAwaitingAlias],
  ['038-accounts-by-owner-in-order', accountsByOwnerInOrder],
  ['039-clients-by-branch', clientsByBranch],
  ['040-status-within-account-and-type', statusWithinAccountAndType],
  ['041-retry-schedule-steps', retryScheduleSteps],
  ['042-window-counts', windowCounts],
  ['043-alias-claims', aliasClaims],
  ['044-payable-transfers', payableTransfers],
  ['045-fold-only-slot-zero', foldOnlySlotZero],
  ['046-webhook-deletions-recorded', webhookDeletionsRecorded],
  ['047-attempts-keep-their-place', attemptsKeepTheirPlace],
  ['048-event-feed-order', eventFeedOrder],
];

/** Every migration's name, in order. */
export const MIGRATION_NAMES: readonly string[] = MIGRATIONS.map(([name]) => name);

export const migrationSource: Knex.MigrationSource<readonly [string, Migration]> = {
  getMigrations: () => Promise.resolve([...MIGRATIONS]),
  getMigrationName: ([name]) => name,
  getMigration: ([, migration]) => Promise.resolve(migration),
};

/**
 * Errors of a migration that lost a lock to running writers: a deadlock (writers take a table a migration locks and
 * one it changes in either order, so no order of its own avoids one), or lock_timeout. Its transaction was rolled
 * back whole (before its COMMIT: nothing of it stayed); it runs again, a few times, a little later each time.
 */
const LOST_TO_WRITERS = ['40P01', '55P03'];
const MIGRATION_ATTEMPTS = 5;

/**
 * Brings the schema up to date, then makes the events feed this server's (adoptFeedServer). On a server, instances
 * starting together migrate one at a time: each waits for a session advisory lock (one per schema) on a connection
 * of its own. PostgreSQL releases that lock when its session ends, however the process ends; knex's own lock is a
 * row, which a migrator killed half-way leaves set, refusing every later start. So a row still set when the advisory
 * lock is ours was left by a dead migrator, and is freed (knex runs the pending migrations in one transaction: a
 * half-done run was rolled back). A run that lost a lock to running writers is run again (LOST_TO_WRITERS): with the
 * service's 10 s lock_timeout, a start may wait about a minute at worst, and writers queued behind its lock requests
 * wait with it. Embedded PostgreSQL belongs to one process, which has nobody to wait for.
 */
export async function migrateToLatest(knex: Knex, options: { embedded?: boolean } = {}): Promise<void> {
  if (options.embedded) {
    await knex.migrate.latest({ migrationSource });
    await adoptFeedServer(knex);
    return;
  }
  const session = new pg.Client((knex.client as Knex.Client).connectionSettings);
  await session.connect();
  try {
    const schema = (knex.client as { searchPath?: string | string[] }).searchPath;
    await session.query('SELECT pg_advisory_lock(hashtext($1))', [`rcs migrations ${[schema ?? ''].flat()[0]}`]);
    for (let attempt = 1; ; attempt++) {
      await knex.migrate.forceFreeMigrationsLock({ migrationSource });
      try {
        await knex.migrate.latest({ migrationSource });
        await adoptFeedServer(knex);
        return;
      } catch (error) {
        if (attempt === MIGRATION_ATTEMPTS || !LOST_TO_WRITERS.includes((error as { code?: string }).code ?? '')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
      }
    }
  } finally {
    await session.end();
  }
}
