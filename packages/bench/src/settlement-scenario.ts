import { createDatabase, KnexLedgerQueries } from '@rcs/adapters-postgres';
import { postgresCpuMeter } from './cpu';
import { seedReceivables } from './seed';
import { startService } from './service-process';
import { progress, runningProgress } from './stats';

export interface SettlementResult {
  readonly seconds: number;
  readonly peakRssMiB: number;
  /** CPU the service spent on the run; the rest of the wall time is PostgreSQL's (same machine, 2 cores). */
  readonly serviceCpuSeconds: number;
  /** CPU the machine's PostgreSQL spent on the run, when it runs here. */
  readonly databaseCpuSeconds: number | undefined;
  readonly settlements: number;
  readonly settledReceivables: number;
  readonly ledgerHolds: boolean;
}

/**
 * The settlement cycle over `accounts` accounts with `perAccount` PAID receivables each, every account holding the
 * money for them: run once through the sandbox helper on a fresh service process, timed, with its peak memory.
 */
export async function settlementScenario(url: string, accounts: number, perAccount: number): Promise<SettlementResult> {
  const service = await startService({ DATABASE_URL: url });
  const knex = createDatabase({ url, poolSize: 2 });
  try {
    const customer = await knex('customers').where({ name: 'Sandbox Customer 1' }).first<{ id: string }>('id');
    await seedReceivables(knex, Number(customer.id), accounts, perAccount, 'PAID', true);
    const token = await service.login();
    progress(`settling ${(accounts * perAccount).toLocaleString('en')} PAID receivables on ${accounts.toLocaleString('en')} accounts`);
    const started = performance.now();
    const cpuBefore = service.cpuSeconds();
    const databaseCpu = postgresCpuMeter();
    // Chunks commit one by one, so the settlements counted so far show how far the run is.
    const running = runningProgress();
    const poll = setInterval(() => {
      const elapsed = (performance.now() - started) / 1000;
      void knex('settlements')
        .count({ n: '*' })
        .then(
          ([{ n }]) =>
            running.update(elapsed, `${Math.round(elapsed)} s: ${Number(n).toLocaleString('en')} / ${accounts.toLocaleString('en')} accounts settled`),
          () => undefined,
        );
    }, 1000);
    const run = await service.call('POST', '/v1/sandbox/settlement-runs', token).finally(() => clearInterval(poll));
    const seconds = (performance.now() - started) / 1000;
    running.done();
    const serviceCpuSeconds = service.cpuSeconds() - cpuBefore;
    const databaseCpuSeconds = databaseCpu();
    if (run.status !== 201) throw new Error(`settlement run answered ${run.status}: ${JSON.stringify(run.body)}`);
    const { settlements, settledReceivables } = run.body as { settlements: number; settledReceivables: number };
    const mismatches = await new KnexLedgerQueries(() => knex).mismatches();
    return {
      seconds,
      serviceCpuSeconds,
      databaseCpuSeconds,
      peakRssMiB: service.peakRssMiB(),
      settlements,
      settledReceivables,
      ledgerHolds: mismatches.length === 0,
    };
  } finally {
    await knex.destroy();
    await service.stop();
  }
}
