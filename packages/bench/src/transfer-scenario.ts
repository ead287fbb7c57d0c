import { composeCvu } from '@rcs/domain';
import { createDatabase, KnexLedgerQueries } from '@rcs/adapters-postgres';
import { startService } from './service-process';
import { progress } from './stats';
import { timedRun } from './timed-run';

export interface TransferRunResult {
  readonly seconds: number;
  readonly peakRssMiB: number;
  /** CPU the service spent on the run (the in-process simulator's included); the rest of the wall time is PostgreSQL's. */
  readonly serviceCpuSeconds: number;
  readonly completed: number;
  readonly ledgerHolds: boolean;
}

/** A Banco de la Nación CBU with valid check digits: the simulator completes payouts to it at once. */
const DESTINATION = composeCvu('0110599', 12345678901n);
const AMOUNT_MINOR = 12_345n;

/**
 * `count` PENDING OUTGOING_TRANSFERs from the sandbox customer's MAIN account, funded for all of them, paid by one run
 * of the transfer worker (the sandbox helper) against the in-process simulator, on a fresh service process: timed,
 * with its peak memory, the ledger verified after it.
 */
export async function transferScenario(url: string, count: number, env: Record<string, string> = {}): Promise<TransferRunResult> {
  const service = await startService({ DATABASE_URL: url, ...env });
  const knex = createDatabase({ url, poolSize: 2 });
  try {
    const customer = await knex('customers').where({ name: 'Sandbox Customer 1' }).first<{ id: string }>('id');
    const main = await knex('current_accounts').where({ customer_id: customer.id, account_type: 'MAIN' }).first<{ id: string }>('id');
    const credential = await knex('credentials').where({ customer_id: customer.id }).orderBy('id').first<{ id: string }>('id');
    const fundedMinor = (AMOUNT_MINOR * BigInt(count)).toString();
    await knex.raw(
      `WITH moved AS (
         INSERT INTO movements (customer_id, account_id, account_kind, movement_type, operation_type, subtype, amount_minor, currency_code, movement_date)
         VALUES (?, ?, 'CURRENT', 'CREDIT', 'SETTLEMENT', 'SETTLEMENT_IN', ?, 'ARS', now()) RETURNING account_id
       )
       UPDATE current_accounts SET balance_minor = balance_minor + ? WHERE id = (SELECT account_id FROM moved)`,
      [customer.id, main.id, fundedMinor, fundedMinor],
    );
    await knex.raw(
      `INSERT INTO transfers (customer_id, type, status, source_account_id, amount_minor, currency_code, destination_cbu_cvu, counter_party_name,
                              counter_party_tax_id, created_by_credential_id, creation_date, modification_date, version)
       SELECT ?, 'OUTGOING_TRANSFER', 'PENDING', ?, ?, 'ARS', ?, 'Proveedor ' || n, '30712345681', ?, now(), now(), 1 FROM generate_series(1, ?) n`,
      [customer.id, main.id, AMOUNT_MINOR.toString(), DESTINATION, credential.id, count],
    );
    const token = await service.login();
    progress(`paying ${count.toLocaleString('en')} PENDING outgoing transfers`);
    const completedSoFar = async () => {
      const [{ n }] = await knex('transfers').where({ status: 'COMPLETED' }).count({ n: '*' });
      return `${Number(n).toLocaleString('en')} completed`;
    };
    const { body, seconds, serviceCpuSeconds } = await timedRun(service, '/v1/sandbox/transfer-runs', token, completedSoFar);
    const { completed } = body as { completed: number };
    const mismatches = await new KnexLedgerQueries(() => knex).mismatches();
    const { balance_minor } = await knex('current_accounts').where({ id: main.id }).first<{ balance_minor: string }>('balance_minor');
    return { seconds, serviceCpuSeconds, peakRssMiB: service.peakRssMiB(), completed, ledgerHolds: mismatches.length === 0 && balance_minor === '0' };
  } finally {
    await knex.destroy();
    await service.stop();
  }
}
