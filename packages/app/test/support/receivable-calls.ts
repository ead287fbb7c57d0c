import { key } from './fixtures';
import type { TestApi } from './test-api';

/** The receivable requests the receivable suites send, with the token of `ctx` unless told another. */
export function receivableCalls(ctx: { readonly api: TestApi; readonly token: string }) {
  const issue = (body: object, token = ctx.token) => ctx.api.call('post', '/v1/receivables', { token, body, headers: key('rcv') });
  return {
    issue,
    status: (id: number, value: string) => ctx.api.call('patch', `/v1/receivables/${id}/status`, { token: ctx.token, body: { status: value } }),
    get: async (id: number) => (await ctx.api.call('get', `/v1/receivables/${id}`, { token: ctx.token })).body,
    invoice: (accountId: number, amount: number | string = 1000, extra: object = {}) =>
      issue({ receivableAccountId: accountId, amount, currencyCode: 'ARS', receivableType: 'INVOICE', ...extra }),
    child: (accountId: number, parentId: number, amount: number | string, type = 'CREDIT_NOTE') =>
      issue({ receivableAccountId: accountId, amount, currencyCode: 'ARS', receivableType: type, parentReceivableId: parentId }),
  };
}
