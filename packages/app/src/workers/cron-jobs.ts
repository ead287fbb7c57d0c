import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import type { Application } from '@rcs/domain';
import type { Config } from '../config';

/** The service's calendar lives in Buenos Aires (CONTRACT: dates are calendar days there). */
export const SERVICE_TIMEZONE = 'America/Argentina/Buenos_Aires';

/**
 * Scheduled jobs. Every instance may run them at the same moment: the work itself claims rows (SKIP LOCKED,
 * version checks), so a second runner finds nothing left to do.
 */
export function scheduleJobs(app: Application, config: Config, logger: Logger): ScheduledTask[] {
  const expiration = cron.schedule(
    config.expirationCron,
    async () => {
      const expired = await app.receivables.expire.execute();
      logger.info({ job: 'expiration', expired }, 'expiration run');
    },
    { noOverlap: true, timezone: SERVICE_TIMEZONE, name: 'expiration' },
  );
  const settlement = cron.schedule(
    config.settlementCron,
    async () => {
      const run = await app.settlements.run.execute();
      if (run.settlements > 0) logger.info({ job: 'settlement', ...run, settledAmountMinor: run.settledAmountMinor.toString() }, 'settlement run');
    },
    { noOverlap: true, timezone: SERVICE_TIMEZONE, name: 'settlement' },
  );
  return [expiration, settlement];
}
