import cron from 'node-cron';
import type { Logger } from 'pino';
import { isConcurrentModification, type Application } from '@rcs/domain';
import type { FoldResult } from '@rcs/adapters-postgres';
import { hostname } from 'node:os';
import type { Config } from '../config';
import type { ServiceMetrics } from '../metrics';

/** The service's calendar lives in Buenos Aires (CONTRACT: dates are calendar days there). */
export const SERVICE_TIMEZONE = 'America/Argentina/Buenos_Aires';

/**
 * Scheduled jobs. Every instance may run them at the same moment: the work itself claims rows (SKIP LOCKED,
 * version checks), so a second runner finds nothing left to do.
 */
/** The storage's own upkeep, beside the application's jobs. */
export interface StorageUpkeep {
  readonly foldCounts: () => Promise<FoldResult>;
}

/** The scheduled jobs of an instance; `stop` starts no run more and waits for the runs under way. */
export interface ScheduledJobs {
  stop(): Promise<void>;
}

/** Accounts reconciled at once (each one claim and a provider call or two). */
const ALIAS_RECONCILE_BATCH = 50;

export function scheduleJobs(
  app: Application,
  upkeep: StorageUpkeep,
  config: Config,
  logger: Logger,
  metrics: Pick<ServiceMetrics, 'jobRan' | 'aliasesReconciled'>,
): ScheduledJobs {
  const running = new Set<Promise<void>>();
  // A failed run (a lost connection, a deadlock victim) is logged with the service's logs, not node-cron's own
  // console output; the next run picks up what this one left, as every run's work is claimed row by row.
  const job = (name: string, expression: string, run: () => Promise<void>) =>
    cron.schedule(
      expression,
      () => {
        const once = run().then(
          () => metrics.jobRan(name, 'ok'),
          (err: unknown) => {
            metrics.jobRan(name, 'failed');
            // A conflict with concurrent changes is transient, nothing is broken: a warning, where a failure is an error.
            const level = isConcurrentModification(err) ? 'warn' : 'error';
            logger[level]({ job: name, err }, `${name} run failed; the next run takes over what it left`);
          },
        );
        running.add(once);
        return once.finally(() => running.delete(once));
      },
      { noOverlap: true, timezone: SERVICE_TIMEZONE, name },
    );
  const tasks = [
    job('expiration', config.expirationCron, async () => {
      const expired = await app.receivables.expire.execute();
      logger.info({ job: 'expiration', expired }, 'expiration run');
    }),
    job('settlement', config.settlementCron, async () => {
      const run = await app.settlements.run.execute();
      if (run.settlements > 0) logger.info({ job: 'settlement', ...run, settledAmountMinor: run.settledAmountMinor.toString() }, 'settlement run');
    }),
    job('transfers', config.transferCron, async () => {
      const run = await app.transfers.process.execute({ worker: `${hostname()}:${process.pid}` });
      if (run.completed + run.failed + run.inProgress > 0) logger.info({ job: 'transfers', ...run }, 'transfer run');
    }),
    job('idempotency-purge', config.idempotencyPurgeCron, async () => {
      const purged = await app.idempotency.purge.execute();
      if (purged > 0) logger.info({ job: 'idempotency-purge', purged }, 'expired idempotency records deleted');
    }),
    job('event-purge', config.eventPurgeCron, async () => {
      const purged = await app.events.purge.execute({ retentionDays: config.eventRetentionDays });
      if (purged.events + purged.testAttempts + purged.deletedWebhookAttempts > 0)
        logger.info({ job: 'event-purge', ...purged }, "events and test attempts past their retention, and deleted webhooks' attempts, deleted");
    }),
    job('alias-reconcile', config.aliasReconcileCron, async () => {
      for (let more = true; more;) {
        const pass = await app.receivableAccounts.reconcileAliases.execute({ limit: ALIAS_RECONCILE_BATCH });
        more = pass.more;
        metrics.aliasesReconciled('restored', pass.restored);
        metrics.aliasesReconciled('replaced', pass.replaced.length);
        metrics.aliasesReconciled('taken', pass.taken.length);
        metrics.aliasesReconciled('failed', pass.failed.length);
        if (pass.restored > 0) logger.info({ job: 'alias-reconcile', restored: pass.restored }, 'abandoned alias changes reconciled');
        // Another account holds these accounts' aliases at the provider: payments to them go there. The customer hears of it from its own reads only.
        for (const replaced of pass.replaced) {
          logger.error(
            { job: 'alias-reconcile', ...replaced },
            "the account's alias is held by another account at the banking provider; the account was given another",
          );
        }
        for (const accountId of pass.taken) {
          logger.error(
            { job: 'alias-reconcile', accountId },
            "the account's alias is held by another account at the banking provider, and no other could be registered yet",
          );
        }
        for (const { accountId, error } of pass.failed) {
          logger.warn(
            { job: 'alias-reconcile', accountId, err: error },
            "the account's alias could not be reconciled with the banking provider; the next run tries again",
          );
        }
      }
    }),
    job('count-fold', config.countFoldCron, async () => {
      logger.info({ job: 'count-fold', ...(await upkeep.foldCounts()) }, 'list counts folded');
    }),
    job('webhook-expiry', config.webhooks.expiryCron, async () => {
      const expired = await app.webhooks.expireHeld.execute();
      if (expired > 0) logger.info({ job: 'webhook-expiry', expired }, 'attempts held past WEBHOOK_RETENTION_HOURS expired');
    }),
  ];
  return {
    async stop() {
      for (const task of tasks) await task.destroy();
      await Promise.all(running);
    },
  };
}
