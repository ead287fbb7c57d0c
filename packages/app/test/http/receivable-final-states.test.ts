import { RECEIVABLE_STATUSES } from '@rcs/domain';
import { useTestApi } from '../support/test-api';
import { activeAccount, key } from '../support/fixtures';

const PAYER = { name: 'Juan Pagador', taxId: '20-12345678-6' };

describe('receivables in a final status', () => {
  const ctx = useTestApi();
  const issue = (body: object) => ctx.api.call('post', '/v1/receivables', { token: ctx.token, body: { currencyCode: 'ARS', ...body }, headers: key('final') });
  const status = (id: number, value: string) => ctx.api.call('patch', `/v1/receivables/${id}/status`, { token: ctx.token, body: { status: value } });
  const edit = (id: number) => ctx.api.call('put', `/v1/receivables/${id}`, { token: ctx.token, body: { description: 'too late' } });
  const stored = async (id: number) => (await ctx.api.db.knex('receivables').where({ id }).first()).status;

  /** An invoice with a retention, paid, collected and settled by the settlement cycle: both SETTLED. */
  async function settledFamily() {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const parent = (await issue({ receivableAccountId: account.id, amount: 100, receivableType: 'INVOICE' })).body;
    const child = (await issue({ receivableAccountId: account.id, amount: 10, receivableType: 'RETENTION', parentReceivableId: parent.id })).body;
    await status(parent.id, 'PAID');
    await ctx.api.call('post', '/v1/sandbox/collections', { token: ctx.token, body: { receivableAccountId: account.id, amount: 90, counterParty: PAYER } });
    await ctx.api.call('post', '/v1/sandbox/settlement-runs', { token: ctx.token });
    return { parent, child };
  }

  it('answers every status asked of a SETTLED receivable, parent or child, with 422 updating-receivable-final-status', async () => {
    const { parent, child } = await settledFamily();
    for (const id of [parent.id, child.id]) {
      for (const asked of RECEIVABLE_STATUSES) {
        const res = await status(id, asked);
        expect([asked, res.status, res.body.code]).toEqual([asked, 422, 'updating-receivable-final-status']);
      }
      expect(await stored(id)).toBe('SETTLED');
    }
  });

  it('answers cancelling a SETTLED parent with updating-receivable-final-status, not receivable-has-related-items', async () => {
    const { parent } = await settledFamily();
    const res = await status(parent.id, 'DISABLED');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('updating-receivable-final-status');
  });

  it('answers every status asked of a DISABLED receivable with 422 updating-receivable-final-status', async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const cancelled = (await issue({ receivableAccountId: account.id, amount: 5, receivableType: 'INVOICE' })).body;
    await status(cancelled.id, 'DISABLED');
    for (const asked of RECEIVABLE_STATUSES) {
      const res = await status(cancelled.id, asked);
      expect([asked, res.status, res.body.code]).toEqual([asked, 422, 'updating-receivable-final-status']);
    }
    expect(await stored(cancelled.id)).toBe('DISABLED');
  });

  it('answers a PUT on a SETTLED receivable with 422 updating-receivable-final-status', async () => {
    const { parent } = await settledFamily();
    const res = await edit(parent.id);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('updating-receivable-final-status');
    expect((await ctx.api.db.knex('receivables').where({ id: parent.id }).first()).description).toBeNull();
  });

  it.each(['SETTLED', 'EXPIRED'])('answers %s asked of a PENDING receivable with 422 invalid-status-transition: only the service sets it', async (asked) => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    const pending = (await issue({ receivableAccountId: account.id, amount: 5, receivableType: 'INVOICE' })).body;
    const res = await status(pending.id, asked);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('invalid-status-transition');
    expect(await stored(pending.id)).toBe('PENDING');
  });
});
