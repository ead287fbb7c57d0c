import { ApiError, type ApiClient, type components } from '@rcs/client';
import { balanceAndMovements, currentAccountId } from './current-accounts';
import { pause, type Keyed, type Report } from './walk';

type RecipientInput = components['schemas']['ContactInput'];

// Any CBU with valid check digits the simulator pays at once; its magic ones (rejected, down, slow) are in
// packages/adapters-bank/README.md. Any alias resolves in the sandbox, to an account derived from it.
const SUPPLIER: RecipientInput = { name: 'Distribuidora Norte SRL', taxId: '30-70111222-5', cbuCvu: '2850590940090418135201' };
const FREELANCER: RecipientInput = { name: 'Maria Lopez', taxId: '27-30111222-5', alias: 'maria.lopez.sol' };
const PAID_TO_SUPPLIER = 450.75;
const MOVED_TO_SUB = 300.1;

/**
 * After the settlement, money out of MAIN: two recipients saved (one by CBU, one by alias, which the provider
 * resolves to its CBU/CVU), 450.75 paid to the first by its contactId, 300.10 moved to the customer's SUB account,
 * the transfer worker run now (its cron would within a minute), and both accounts read once the transfers are done.
 * A transfer only asks: the worker checks the balance and debits it when it pays.
 */
export async function payOut(api: ApiClient, report: Report, keyed: Keyed, mainId: number) {
  const subId = await currentAccountId(api, 'SUB');
  const { data: subBalance } = await api.GET('/v1/current-accounts/{id}/balances', { params: { path: { id: subId } } });
  report('sub-balance', subBalance);

  const supplier = await savedRecipient(api, SUPPLIER);
  report('recipient-by-cbu', supplier);
  report('recipient-by-alias', await savedRecipient(api, FREELANCER));

  const { data: payout } = await api.POST('/v1/transfers', {
    params: keyed('payout'),
    body: { type: 'OUTGOING_TRANSFER', sourceAccountId: mainId, amount: PAID_TO_SUPPLIER, currencyCode: 'ARS', contactId: supplier.id },
  });
  report('payout', payout);
  const { data: internal } = await api.POST('/v1/transfers', {
    params: keyed('internal-transfer'),
    body: { type: 'INTERNAL_TRANSFER', sourceAccountId: mainId, amount: MOVED_TO_SUB, currencyCode: 'ARS', destination: { accountId: subId } },
  });
  report('internal-transfer', internal);

  const { data: run } = await api.POST('/v1/sandbox/transfer-runs', { body: {} });
  report('transfer-run', run);
  report('transfers', await completedTransfers(api, [payout!.id, internal!.id]));

  for (const [name, id] of [
    ['main', mainId],
    ['sub', subId],
  ] as const) {
    const { balance, movements } = await balanceAndMovements(api, id);
    report(`${name}-balance-after`, balance);
    report(`${name}-movements-after`, movements);
  }
}

/** A new recipient, or the one saved already with that CBU/CVU or alias (a walk run again on the same sandbox). */
async function savedRecipient(api: ApiClient, body: RecipientInput) {
  try {
    const { data } = await api.POST('/v1/contacts', { body });
    return data!;
  } catch (error) {
    const existingId = error instanceof ApiError && error.code === 'duplicated-contact' ? error.problem.existingResourceId : undefined;
    if (existingId === undefined) throw error;
    const { data: saved } = await api.GET('/v1/contacts/{id}', { params: { path: { id: existingId } } });
    return saved!;
  }
}

/**
 * The transfers once all are COMPLETED. The run leaves a payout the provider has taken but not finished
 * IN_PROGRESS, and the worker's cron may hold a transfer this run skipped: a later read finds it done.
 */
async function completedTransfers(api: ApiClient, ids: number[]) {
  for (;;) {
    const { data: transfers } = await api.GET('/v1/transfers', { params: { query: { ids: ids.join(',') } } });
    if (transfers!.every((transfer) => transfer.status === 'COMPLETED')) return transfers!;
    const stopped = transfers!.find((transfer) => transfer.status !== 'PENDING' && transfer.status !== 'IN_PROGRESS' && transfer.status !== 'COMPLETED');
    if (stopped) throw new Error(`transfer ${stopped.id} is ${stopped.status}${stopped.failureReason ? ` (${stopped.failureReason})` : ''}`);
    await pause();
  }
}
