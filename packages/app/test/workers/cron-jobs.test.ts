import { Writable } from 'node:stream';
import pino from 'pino';
import type { Application } from '@rcs/domain';
import type { Config } from '../../src/config';
import { scheduleJobs } from '../../src/workers/cron-jobs';

describe('scheduled jobs', () => {
  it('log a failed run with the service logs and run again at the next tick', async () => {
    const lines: Array<{ job?: string; msg: string; err?: { message: string } }> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const logger = pino({ level: 'info' }, sink);
    let settlementRuns = 0;
    const app = {
      receivables: { expire: { execute: async () => 0 } },
      settlements: {
        run: {
          execute: async () => {
            settlementRuns++;
            throw new Error('deadlock detected');
          },
        },
      },
    } as unknown as Application;
    // Every second (node-cron's six-field form), so the test sees two ticks.
    const jobs = scheduleJobs(app, { expirationCron: '0 0 1 1 *', settlementCron: '* * * * * *', idempotencyPurgeCron: '0 0 1 1 *' } as Config, logger);
    try {
      await new Promise((resolve) => setTimeout(resolve, 2_100));
    } finally {
      await Promise.all(jobs.map((job) => job.destroy()));
    }
    expect(settlementRuns).toBeGreaterThanOrEqual(2);
    const failures = lines.filter((line) => line.job === 'settlement');
    expect(failures.length).toBe(settlementRuns);
    expect(failures[0]).toMatchObject({ msg: 'settlement run failed; the next run takes over what it left', err: { message: 'deadlock detected' } });
  });
});
