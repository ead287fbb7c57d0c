import type { Row } from './report';
import { settlementBaseline } from './settlement-baseline';
import { settlementScenario } from './settlement-scenario';
import { transferScenario } from './transfer-scenario';

const databaseCpu = (seconds: number | undefined) => (seconds === undefined ? '' : `, database CPU ${seconds.toFixed(1)} s`);

/** The settlement cycle over `accounts` x `perAccount` PAID receivables, and baseline (d) for the same rows. */
export async function settlementRows(url: string, accounts: number, perAccount: number): Promise<Row[]> {
  // Baseline (d) before and after the settlement, the faster kept, as (a) and (b) are.
  const dBefore = await settlementBaseline(url, accounts, perAccount);
  const s = await settlementScenario(url, accounts, perAccount);
  const dAfter = await settlementBaseline(url, accounts, perAccount);
  const d = dBefore.seconds <= dAfter.seconds ? dBefore : dAfter;
  const dRate = d.receivables / d.seconds;
  const receivables = (accounts * perAccount).toLocaleString('en');
  const time = `${s.seconds.toFixed(1)} s (service CPU ${s.serviceCpuSeconds.toFixed(1)} s${databaseCpu(s.databaseCpuSeconds)})`;
  const memory = `peak RSS ${s.peakRssMiB.toFixed(0)} MiB`;
  const throughput = s.settledReceivables / s.seconds;
  return [
    {
      storage: '-',
      scenario: 'baseline (d) settle in SQL batches',
      result: { throughput: dRate, errors: 0, count: d.receivables, unit: 'receivables/s' },
      note:
        `${d.seconds.toFixed(1)} s${databaseCpu(d.databaseCpuSeconds)}, ${d.movements.toLocaleString('en')} movements; ` +
        `runs: ${dBefore.seconds.toFixed(1)} and ${dAfter.seconds.toFixed(1)} s; the faster is kept`,
    },
    {
      storage: 'postgres',
      scenario: `settlement: ${receivables} receivables / ${accounts.toLocaleString('en')} accounts`,
      result: { throughput, errors: s.ledgerHolds ? 0 : 1, count: s.settlements, unit: 'receivables/s' },
      baseline: '(d)',
      ratio: throughput / dRate,
      target: '>= 50% of (d); <= 60 s, memory flat',
      met: throughput >= 0.5 * dRate && s.seconds <= 60 && s.ledgerHolds,
      note: `${time}, ${memory}, ${s.settlements} settlements, ledger ${s.ledgerHolds ? 'holds' : 'BROKEN'}`,
    },
  ];
}

/** `transfers` PENDING outgoing transfers paid against the in-process simulator. */
export async function transferRow(url: string, transfers: number): Promise<Row> {
  const t = await transferScenario(url, transfers);
  const throughput = t.completed / t.seconds;
  const complete = t.ledgerHolds && t.completed === transfers;
  return {
    storage: 'postgres',
    scenario: `transfer run: ${transfers.toLocaleString('en')} outgoing transfers, in-process simulator`,
    result: { throughput, errors: complete ? 0 : 1, count: t.completed, unit: 'transfers/s' },
    target: '>= 1,000 transfers/s',
    met: throughput >= 1_000 && complete,
    note: `${t.seconds.toFixed(1)} s (service CPU ${t.serviceCpuSeconds.toFixed(1)} s), peak RSS ${t.peakRssMiB.toFixed(0)} MiB, ${t.completed} COMPLETED, ledger ${t.ledgerHolds ? 'holds' : 'BROKEN'}`,
  };
}
