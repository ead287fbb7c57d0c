import type { Knex } from 'knex';
import { calendarDay } from '@rcs/domain';
import { A_CBU, validTaxId } from '@rcs/domain/testing';
import { key } from './fixtures';
import type { TestApi } from './test-api';

export const PROVEEDOR = { name: 'Proveedor SA', taxId: validTaxId('30', 71234568) };

/** A Buenos Aires day `days` after today. */
export const dayFromToday = (days: number) => calendarDay(new Date(Date.now() + days * 86_400_000));

/** The caller's MAIN and SUB current accounts. */
export async function currentAccountsOf(api: TestApi, token: string) {
  const { body } = await api.call('get', '/v1/current-accounts', { token });
  const accounts = body as Array<{ id: number; accountType: string; cvu: string; alias: string }>;
  return { main: accounts.find((a) => a.accountType === 'MAIN')!, sub: accounts.find((a) => a.accountType === 'SUB')! };
}

/** A valid OUTGOING_TRANSFER body paying A_CBU; overrides replace members. */
export const outgoing = (sourceAccountId: number, overrides: Record<string, unknown> = {}) => ({
  type: 'OUTGOING_TRANSFER',
  sourceAccountId,
  amount: '1500.25',
  currencyCode: 'ARS',
  destination: { cbuCvu: A_CBU, counterParty: PROVEEDOR },
  ...overrides,
});

export const postTransfer = (api: TestApi, token: string, body: unknown) => api.call('post', '/v1/transfers', { token, body, headers: key('tr') });

/** A customer created by the operator, with approval control or not, and two credentials with every scope. */
export async function customerWithTwoCredentials(api: TestApi, name: string, approvalControl: boolean) {
  const { customer, clientId, clientSecret } = await api.app.customers.create.execute({ name, approvalControl });
  const second = await api.app.credentials.create.execute({ customerId: customer.id });
  return {
    customerId: customer.id,
    first: await api.login({ clientId, clientSecret }),
    second: await api.login({ clientId: second.clientId, clientSecret: second.clientSecret }),
  };
}

/**
 * Puts `minor` on a current account as the settlement cycle would (a SETTLEMENT_IN credit and its balance), in one
 * statement, so transfer tests start from money without running collections and a cycle first.
 */
export async function fund(knex: Knex, accountId: number, minor: bigint): Promise<void> {
  await knex.raw(
    `WITH moved AS (
       INSERT INTO movements (customer_id, account_id, account_kind, movement_type, operation_type, subtype, amount_minor, currency_code, movement_date)
       SELECT customer_id, id, 'CURRENT', 'CREDIT', 'SETTLEMENT', 'SETTLEMENT_IN', ?, currency_code, now() FROM current_accounts WHERE id = ?
       RETURNING account_id
     )
     UPDATE current_accounts SET balance_minor = balance_minor + ? WHERE id = (SELECT account_id FROM moved)`,
    [minor.toString(), accountId, minor.toString()],
  );
}

/** A current account's balance in minor units, as stored. */
export async function balanceOf(knex: Knex, accountId: number): Promise<bigint> {
  return BigInt((await knex('current_accounts').where({ id: accountId }).first<{ balance_minor: string }>('balance_minor')).balance_minor);
}

/** Ready-made destinations of the simulator (packages/adapters-bank/README.md "Simulator magic values"). */
export const SIMULATED = {
  rejected: '0110599599999999900010',
  down: '0110599599999999900027',
  answersLate: '0110599599999999900041',
  acceptedThenCompleted: '0110599599999999900058',
} as const;
