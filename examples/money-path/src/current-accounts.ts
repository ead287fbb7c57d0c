import type { ApiClient } from '@rcs/client';

/** The id of the customer's current account of that type (each customer has one MAIN and one SUB). */
export async function currentAccountId(api: ApiClient, accountType: 'MAIN' | 'SUB'): Promise<number> {
  const { data } = await api.GET('/v1/current-accounts', { params: { query: { accountType } } });
  return data![0].id;
}

/** A current account's balance and its five newest movements. */
export async function balanceAndMovements(api: ApiClient, id: number) {
  const account = { path: { id } };
  const { data: balance } = await api.GET('/v1/current-accounts/{id}/balances', { params: account });
  const { data: movements } = await api.GET('/v1/current-accounts/{id}/movements', { params: { ...account, query: { count: 5 } } });
  return { balance: balance!, movements: movements! };
}
