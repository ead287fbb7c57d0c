import { hostname } from 'node:os';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { Application } from '@rcs/domain';
import type { Config } from '../../src/config';
import { ServiceMetrics } from '../../src/metrics';
import { scheduleJobs, type StorageUpkeep } from '../../src/workers/cron-jobs';

const noUpkeep: StorageUpkeep = { foldCounts: () => Promise.reject(new Error('not scheduled in this test')) };

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
      receivables: { expire: { execute: () => Promise.resolve(0) } },
      settlements: {
        run: {
          execute: () => {
            settlementRuns++;
            return Promise.reject(new Error('deadlock detected'));
          },
        },
      },
    } as unknown as Application;
    const metrics = new ServiceMetrics(false);
    // node-cron reads the time and waits with timers: both fake, two seconds pass at once and exactly.
    jest.useFakeTimers({ now: new Date('2026-03-01T10:00:00.000Z') });
    // Every second (node-cron's six-field form), so two seconds hold two ticks.
    const jobs = scheduleJobs(
      app,
      noUpkeep,
      {
        expirationCron: '0 0 1 1 *',
        settlementCron: '* * * * * *',
        idempotencyPurgeCron: '0 0 1 1 *',
        eventPurgeCron: '0 0 1 1 *',
        countFoldCron: '0 0 1 1 *',
        aliasReconcileCron: '0 0 1 1 *',
        transferCron: '0 0 1 1 *',
        webhooks: { expiryCron: '0 0 1 1 *' },
      } as Config,
      logger,
      metrics,
    );
    try {
      await jest.advanceTimersByTimeAsync(2_000);
    } finally {
      await jobs.stop();
      jest.useRealTimers();
    }
    expect(settlementRuns).toBe(2);
    const failures = lines.filter((line) => line.job === 'settlement');
    expect(failures).toHaveLength(2);
    expect(failures[0]).toMatchObject({ msg: 'settlement run failed; the next run takes over what it left', err: { message: 'deadlock detected' } });
    expect(await metrics.text()).toContain('rcs_job_runs_total{job="settlement",outcome="failed"} 2');
  });

  const never = '0 0 1 1 *';
  const allNever = {
    expirationCron: never,
    settlementCron: never,
    idempotencyPurgeCron: never,
    eventPurgeCron: never,
    countFoldCron: never,
    aliasReconcileCron: never,
    transferCron: never,
    webhooks: { expiryCron: never },
  };
  /** Schedules the jobs with `config` over every-never defaults, lets one second of fake time pass, and stops them. */
  async function oneSecondOf(
    app: unknown,
    config: object,
    upkeep = noUpkeep,
    logger = pino({ level: 'silent' }),
    metrics = new ServiceMetrics(false),
  ): Promise<void> {
    jest.useFakeTimers({ now: new Date('2026-03-01T10:00:00.000Z') });
    const jobs = scheduleJobs(app as Application, upkeep, { ...allNever, ...config } as Config, logger, metrics);
    try {
      await jest.advanceTimersByTimeAsync(1_000);
    } finally {
      await jobs.stop();
      jest.useRealTimers();
    }
  }

  it('stops starting runs at once, and its stop waits for the run under way (a shutdown closes the database after it)', async () => {
    let finish = () => {};
    let runs = 0;
    const app = { settlements: { run: { execute: () => (runs++, new Promise((resolve) => (finish = () => resolve({ settlements: 0 })))) } } };
    jest.useFakeTimers({ now: new Date('2026-03-01T10:00:00.000Z') });
    try {
      const jobs = scheduleJobs(
        app as unknown as Application,
        noUpkeep,
        { ...allNever, settlementCron: '* * * * * *' } as Config,
        pino({ level: 'silent' }),
        new ServiceMetrics(false),
      );
      await jest.advanceTimersByTimeAsync(1_000);
      let stopped = false;
      const stopping = jobs.stop().then(() => (stopped = true));
      await jest.advanceTimersByTimeAsync(3_000);
      expect([runs, stopped]).toEqual([1, false]);
      finish();
      await stopping;
      expect(runs).toBe(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('purge events past EVENT_RETENTION_DAYS on EVENT_PURGE_CRON', async () => {
    const asked: unknown[] = [];
    const app = { events: { purge: { execute: (input: unknown) => (asked.push(input), Promise.resolve(3)) } } };
    await oneSecondOf(app, { eventPurgeCron: '* * * * * *', eventRetentionDays: 7 });
    expect(asked).toEqual([{ retentionDays: 7 }]);
  });

  it('folds the list counts on COUNT_FOLD_CRON', async () => {
    let folds = 0;
    const upkeep = { foldCounts: () => (folds++, Promise.resolve({ groups: 1, folded: 7, removed: 0, skipped: 0 })) };
    await oneSecondOf({}, { countFoldCron: '* * * * * *' }, upkeep);
    expect(folds).toBe(1);
  });

  it('runs the transfer worker on TRANSFER_CRON, its leases held in the name of this host and process', async () => {
    const asked: unknown[] = [];
    const app = { transfers: { process: { execute: (input: unknown) => (asked.push(input), Promise.resolve({ completed: 1, failed: 0, inProgress: 0 })) } } };
    await oneSecondOf(app, { transferCron: '* * * * * *' });
    expect(asked).toEqual([{ worker: `${hostname()}:${process.pid}` }]);
  });

  it('reconciles abandoned alias changes on ALIAS_RECONCILE_CRON, batch after full batch, naming each account an operator should hear of', async () => {
    const lines: Array<{ accountId?: number; level: number }> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const passes = [
      { restored: 49, replaced: [{ accountId: 7, previous: 'acme.vieja', alias: 'ra.0000007.ab12' }], taken: [], failed: [], more: true },
      { restored: 2, replaced: [], taken: [8], failed: [{ accountId: 9 }], more: false },
    ];
    const asked: unknown[] = [];
    const app = { receivableAccounts: { reconcileAliases: { execute: (input: unknown) => (asked.push(input), Promise.resolve(passes.shift())) } } };
    const metrics = new ServiceMetrics(false);
    await oneSecondOf(app, { aliasReconcileCron: '* * * * * *' }, noUpkeep, pino({ level: 'info' }, sink), metrics);
    expect(asked).toEqual([{ limit: 50 }, { limit: 50 }]);
    // pino's levels: 50 error, 40 warn.
    expect(lines.filter((line) => line.accountId !== undefined).map((line) => [line.level, line.accountId])).toEqual([
      [50, 7],
      [50, 8],
      [40, 9],
    ]);
    const exposed = await metrics.text();
    for (const [outcome, accounts] of [
      ['restored', 51],
      ['replaced', 1],
      ['taken', 1],
      ['failed', 1],
    ]) {
      expect(exposed).toContain(`rcs_alias_reconciliations_total{outcome="${outcome}"} ${accounts}`);
    }
  });

  it('expire held webhook attempts on WEBHOOK_EXPIRY_CRON', async () => {
    let runs = 0;
    const app = { webhooks: { expireHeld: { execute: () => (runs++, Promise.resolve(2)) } } };
    await oneSecondOf(app, { webhooks: { expiryCron: '* * * * * *' } });
    expect(runs).toBe(1);
  });
});
