import type request from 'supertest';
import type { ErrorCode } from '@rcs/domain';
import { activeAccount, key } from './fixtures';
import type { TestApi } from './test-api';
import { currentAccountsOf, customerWithTwoCredentials, dayFromToday, outgoing, postTransfer } from './transfer-fixtures';

type Trigger = () => Promise<{ res: request.Response; names: readonly string[] }>;

let serial = 0;

/** A request answering each code of the transfer routes, and what its detail must name (error-details.test.ts). */
export function transferErrorTriggers(ctx: { readonly api: TestApi; readonly token: string }): Partial<Record<ErrorCode, Trigger>> {
  const main = async (token = ctx.token) => (await currentAccountsOf(ctx.api, token)).main;
  const post = (body: unknown, token = ctx.token) => postTransfer(ctx.api, token, body);
  return {
    forbidden: async () => {
      const { first } = await customerWithTwoCredentials(ctx.api, `Details four eyes ${process.pid}-${++serial}`, true);
      const transfer = (await post(outgoing((await main(first)).id), first)).body;
      const res = await ctx.api.call('post', `/v1/transfers/${transfer.id}/approvals`, { token: first, headers: key('err') });
      return { res, names: [`transfer ${transfer.id}`, 'credential'] };
    },
    'unmatching-transfer-currency-code': async () => ({ res: await post(outgoing((await main()).id, { currencyCode: 'USD' })), names: ['currencyCode'] }),
    'equal-origin-destination': async () => {
      const source = await main();
      return {
        res: await post(outgoing(source.id, { destination: { cbuCvu: source.cvu, counterParty: { name: 'Yo', taxId: '30712345671' } } })),
        names: [`source account ${source.id}`],
      };
    },
    'source-account-not-active': async () => {
      const { clientId, clientSecret } = await ctx.api.app.customers.create.execute({ name: `Details disabled ${process.pid}-${++serial}` });
      const token = await ctx.api.login({ clientId, clientSecret });
      const source = await main(token);
      await ctx.api.db.knex('current_accounts').where({ id: source.id }).update({ status: 'DISABLED' });
      return { res: await post(outgoing(source.id), token), names: [`source account ${source.id}`, 'DISABLED'] };
    },
    'transfer-not-cancelable': async () => {
      const transfer = (await post(outgoing((await main()).id))).body;
      const res = await ctx.api.call('post', `/v1/transfers/${transfer.id}/cancellations`, { token: ctx.token, headers: key('err') });
      return { res, names: [`transfer ${transfer.id}`, 'PENDING', 'SCHEDULED'] };
    },
    'receivable-account-not-transfer-enabled': async () => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      return { res: await post(outgoing(account.id, { scheduledDate: dayFromToday(1) })), names: [`sourceAccountId ${account.id}`] };
    },
  };
}
