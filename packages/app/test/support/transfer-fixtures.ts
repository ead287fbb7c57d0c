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
