import type { TestApi } from './test-api';

/** The receivable account requests the account suites send: each opening under an Idempotency-Key of its own. */
export function receivableAccountCalls(ctx: { readonly api: TestApi; readonly token: string }) {
  let keys = 0;
  return {
    open: (body: object, token = ctx.token) =>
      ctx.api.call('post', '/v1/receivable-accounts', { token, body, headers: { 'Idempotency-Key': `open-${++keys}` } }),
    get: (id: number, query = '') => ctx.api.call('get', `/v1/receivable-accounts/${id}${query}`, { token: ctx.token }),
  };
}
