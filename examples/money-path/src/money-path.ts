import { randomUUID } from 'node:crypto';
import { ApiError, type ApiClient } from '@rcs/client';
import { balanceAndMovements, currentAccountId } from './current-accounts';
import { payOut } from './pay-out';
import { pause, type Keyed, type Report } from './walk';

const PAYER = { businessName: 'ACME SA', taxId: '30-71234567-1', documentType: 'CUIT' as const };

/**
 * From a login to money in the customer's MAIN current account: a client (the payer), its receivable account once
 * ACTIVE, an invoice of 1,500.00 with a credit note of 200.00 under it, the payer's transfer of the net 1,300.00
 * (the sandbox stands in for the bank), the invoice marked PAID, the settlement run, and the balance it left;
 * then part of that money paid out to a recipient and moved to the SUB account (see pay-out.ts).
 * Amounts travel as the API's decimal numbers of pesos. The client throws an ApiError for any refusal, so every
 * answer it returns has its data: the `!`s say so.
 */
export async function walkMoneyPath(api: ApiClient, report: Report) {
  // The document marks these writes' Idempotency-Key required, so the walk names it: one per write and run.
  const run = randomUUID();
  const keyed: Keyed = (write) => ({ header: { 'Idempotency-Key': `${write}-${run}` } });

  const { data: me } = await api.GET('/v1/me');
  report('logged-in', me);

  const { data: client } = await api.POST('/v1/clients', { body: PAYER });
  report('client', client);

  const accountId = await openReceivableAccount(api, client!.id, keyed('account'));
  const account = await activeAccount(api, accountId);
  report('receivable-account', account);

  const { data: invoice } = await api.POST('/v1/receivables', {
    params: keyed('invoice'),
    body: { receivableAccountId: accountId, receivableType: 'INVOICE', amount: 1500, currencyCode: 'ARS', dueDate: '2099-12-31' },
  });
  report('invoice', invoice);
  const { data: creditNote } = await api.POST('/v1/receivables', {
    params: keyed('credit-note'),
    body: { receivableAccountId: accountId, receivableType: 'CREDIT_NOTE', amount: 200, currencyCode: 'ARS', parentReceivableId: invoice!.id },
  });
  report('credit-note', creditNote);

  const { data: collection } = await api.POST('/v1/sandbox/collections', {
    body: { receivableAccountId: accountId, amount: 1300, counterParty: { name: PAYER.businessName, taxId: PAYER.taxId } },
  });
  report('collection', collection);
  // Money is never matched to a receivable automatically: the integrator says what the collection paid.
  const { data: paid } = await api.PATCH('/v1/receivables/{id}/status', { params: { path: { id: invoice!.id } }, body: { status: 'PAID' } });
  report('paid', paid);

  const { data: settlement } = await api.POST('/v1/sandbox/settlement-runs', { body: {} });
  report('settlement-run', settlement);

  const mainId = await currentAccountId(api, 'MAIN');
  const { balance, movements } = await balanceAndMovements(api, mainId);
  report('balance', balance);
  report('movements', movements);

  await payOut(api, report, keyed, mainId);
}

/** A new receivable account for the client, or the one it has already (the service names it in its refusal). */
async function openReceivableAccount(api: ApiClient, clientId: number, params: { header: { 'Idempotency-Key': string } }): Promise<number> {
  try {
    const { data } = await api.POST('/v1/receivable-accounts', { params, body: { clientId } });
    return data!.id;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'receivable-account-already-exists' && error.problem.existingResourceId)
      return error.problem.existingResourceId;
    throw error;
  }
}

/** A new account is PROVISIONING until the bank assigns its CVU, about a second later; a DISABLED one never receives money. */
async function activeAccount(api: ApiClient, id: number) {
  for (;;) {
    const { data } = await api.GET('/v1/receivable-accounts/{id}', { params: { path: { id }, query: { expand: 'owner' } } });
    if (data!.status === 'ACTIVE') return data!;
    if (data!.status === 'DISABLED') throw new Error(`receivable account ${id} is DISABLED (${data!.disabledReason}): ${data!.disabledMessage ?? ''}`);
    await pause();
  }
}
