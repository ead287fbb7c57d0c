import type { IncomingMessage, ServerResponse } from 'node:http';
import pino from 'pino';
import { Money, type Application } from '@rcs/domain';
import { A_CBU, validTaxId } from '@rcs/domain/testing';
import { createDatabase } from '@rcs/adapters-postgres';
import type { TestDatabase } from '@rcs/adapters-postgres/testing';
import { startBankSimulator } from '@rcs/adapters-bank';
import { loadConfig } from '../../src/config';
import { buildContainer, TYPES } from '../../src/container';
import { fund, SIMULATED } from './transfer-fixtures';

/**
 * The lease of the tests' transfer workers (transfer-child.js's too, told by its environment). A run starts no payout
 * past half of it: long enough for a loaded machine's run to pay its first chunks, short enough to wait for one
 * that a killed worker left.
 */
export const TEST_TRANSFER_LEASE_MS = 1_000;

/** An application instance of its own (own pool) on a test database paying through the simulator at `bankUrl`. */
export function payingInstanceOn(db: TestDatabase, bankUrl: string, env: Record<string, string> = {}) {
  const knex = createDatabase({ url: db.url, schema: db.schema, poolSize: 4, embedded: db.storage === 'pglite' });
  const config = loadConfig({
    APP_MODE: 'sandbox',
    JWT_SECRET: 'x'.repeat(40),
    WORKERS_ENABLED: 'false',
    TRANSFER_LEASE_MS: String(TEST_TRANSFER_LEASE_MS),
    ...env,
  });
  const app = buildContainer(config, pino({ level: 'silent' }), knex, {
    jwtSecret: 'x'.repeat(40),
    bankProviderUrl: bankUrl,
    webhookSecretKey: 'w'.repeat(40),
  }).get<Application>(TYPES.Application);
  return { app, knex };
}

/** The simulator, counting the payouts sent to it by id, and telling `onPayout` when it has answered each send. */
export async function countingSimulator() {
  const bank = await startBankSimulator(0, { provisioningDelayMs: 0, hangMs: 1_000 });
  const sends = new Map<string, number>();
  const listeners: Array<() => void> = [];
  bank.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const payout = /^\/v1\/payouts\/([^/]+)$/.exec(req.url ?? '');
    if (!payout || req.method !== 'PUT') return;
    sends.set(payout[1], (sends.get(payout[1]) ?? 0) + 1);
    res.once('finish', () => listeners.forEach((l) => l()));
  });
  return { ...bank, sends, onPayoutAnswered: (listener: () => void) => listeners.push(listener) };
}

/**
 * A customer whose MAIN account holds `fundedMinor`, with PENDING OUTGOING_TRANSFERs of `amountsMinor` (every
 * `rejectEvery`-th to the destination the simulator rejects).
 */
export async function seedTransfers(db: TestDatabase, app: Application, fundedMinor: bigint, amountsMinor: readonly bigint[], rejectEvery = 0) {
  const { customer, clientId } = await app.customers.create.execute({ name: `payer-${process.pid}-${Date.now()}-${Math.random()}` });
  const credential = await db.knex('credentials').where({ client_id: clientId }).first<{ id: string }>('id');
  const main = await db.knex('current_accounts').where({ customer_id: customer.id, account_type: 'MAIN' }).first<{ id: string }>('id');
  const mainId = Number(main.id);
  await fund(db.knex, mainId, fundedMinor);
  const ids: number[] = [];
  for (const [i, amountMinor] of amountsMinor.entries()) {
    const transfer = await app.transfers.create.execute({
      customerId: customer.id,
      credentialId: Number(credential.id),
      type: 'OUTGOING_TRANSFER',
      sourceAccountId: mainId,
      amount: Money.ofMinor(amountMinor),
      currencyCode: 'ARS',
      destination: {
        cbuCvu: rejectEvery > 0 && i % rejectEvery === rejectEvery - 1 ? SIMULATED.rejected : A_CBU,
        counterParty: { name: 'Proveedor SA', taxId: validTaxId('30', 71234568) },
      },
    });
    ids.push(transfer.id);
  }
  return { customerId: customer.id, mainId, ids };
}

/** What the database says about the seeded transfers: statuses, each one's movements, the account's balance. */
export async function payoutState(db: TestDatabase, mainId: number, ids: readonly number[]) {
  const transfers = await db.knex('transfers').whereIn('id', ids).orderBy('id').select<Array<{ id: string; status: string; amount_minor: string }>>('*');
  const movements = await db.knex('movements').whereIn('transfer_id', ids).select<Array<{ transfer_id: string; subtype: string; amount_minor: string }>>('*');
  const sidesOf = (id: string) =>
    movements
      .filter((m) => m.transfer_id === id)
      .map((m) => m.subtype)
      .sort();
  const balance = BigInt((await db.knex('current_accounts').where({ id: mainId }).first<{ balance_minor: string }>('balance_minor')).balance_minor);
  const count = (status: string) => transfers.filter((t) => t.status === status).length;
  const sum = (status: string) => transfers.filter((t) => t.status === status).reduce((s, t) => s + BigInt(t.amount_minor), 0n);
  return {
    transfers: transfers.map((t) => ({ id: Number(t.id), status: t.status, sides: sidesOf(t.id), amountMinor: BigInt(t.amount_minor) })),
    balance,
    count,
    sum,
  };
}
