import { createDatabase, KnexLedgerQueries } from '@rcs/adapters-postgres';
import { postgresCpuMeter } from './cpu';
import { seedReceivables } from './seed';
import { statementStats, statementTable } from './statement-stats';
import { startService } from './service-process';
import { progress } from './stats';
import { timedRun } from './timed-run';

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
    // Chunks commit one by one, so the settlements counted so far show how far the run is.
    const accountsSettled = async () => {
      const [{ n }] = await knex('settlements').count({ n: '*' });
      return `${Number(n).toLocaleString('en')} / ${accounts.toLocaleString('en')} accounts settled`;
    };
    // What each statement costs a receivable, when the server has pg_stat_statements loaded.
    const statements = await statementStats(url, new URL(url).pathname.slice(1));
    await statements?.reset();
    const databaseCpu = postgresCpuMeter();
    const { body, seconds, serviceCpuSeconds } = await timedRun(service, '/v1/sandbox/settlement-runs', token, accountsSettled);
    const databaseCpuSeconds = databaseCpu();
    const { settlements, settledReceivables } = body as { settlements: number; settledReceivables: number };
    if (statements) {
      progress(`statements per receivable:\n${statementTable(await statements.read(settledReceivables, 0.00001))}`);
      await statements.end();
    }
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
