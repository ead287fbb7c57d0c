import { key } from '../support/fixtures';
import { itRacing, useTestApi } from '../support/test-api';
import { currentAccountsOf, customerWithTwoCredentials, dayFromToday, outgoing, postTransfer } from '../support/transfer-fixtures';

let customers = 0;

describe('cancelling, approving and rejecting transfers', () => {
  const ctx = useTestApi();
  const move = (token: string, id: number, what: 'cancellations' | 'approvals' | 'rejections') =>
    ctx.api.call('post', `/v1/transfers/${id}/${what}`, { token, headers: key(what) });

  /** A customer with approval control, its two credentials, and a transfer the first one created. */
  async function awaitingApproval(overrides: Record<string, unknown> = {}) {
    const world = await customerWithTwoCredentials(ctx.api, `Four eyes ${process.pid}-${++customers}`, true);
    const { main } = await currentAccountsOf(ctx.api, world.first);
    const res = await postTransfer(ctx.api, world.first, outgoing(main.id, overrides));
    expect(res.body.status).toBe('PENDING_APPROVAL');
    return { ...world, transfer: res.body as { id: number } };
  }

  describe('without approval control', () => {
    const created = async (overrides: Record<string, unknown> = {}) => {
      const { main } = await currentAccountsOf(ctx.api, ctx.token);
      return (await postTransfer(ctx.api, ctx.token, outgoing(main.id, overrides))).body as { id: number };
    };

    it('cancels a SCHEDULED transfer, once', async () => {
      const transfer = await created({ scheduledDate: dayFromToday(2) });
      const res = await move(ctx.token, transfer.id, 'cancellations');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: transfer.id, status: 'CANCELLED', executionDate: null });
      expect((await move(ctx.token, transfer.id, 'cancellations')).body).toMatchObject({ status: 422, code: 'transfer-not-cancelable' });
    });

    it('refuses to cancel a PENDING transfer, which the worker may be paying, as 422 transfer-not-cancelable', async () => {
      const transfer = await created();
      expect((await move(ctx.token, transfer.id, 'cancellations')).body).toMatchObject({ status: 422, code: 'transfer-not-cancelable' });
      expect((await ctx.api.call('get', `/v1/transfers/${transfer.id}`, { token: ctx.token })).body.status).toBe('PENDING');
    });

    it('has nothing to approve or reject: 422 invalid-status-transition', async () => {
      const transfer = await created({ scheduledDate: dayFromToday(2) });
      expect((await move(ctx.token, transfer.id, 'approvals')).body).toMatchObject({ status: 422, code: 'invalid-status-transition' });
      expect((await move(ctx.token, transfer.id, 'rejections')).body).toMatchObject({ status: 422, code: 'invalid-status-transition' });
    });

    it('answers 404 for a transfer that does not exist', async () => {
      expect((await move(ctx.token, 999_999_999, 'cancellations')).body).toMatchObject({ status: 404, code: 'resource-not-found' });
    });
  });

  describe('under approval control', () => {
    it('is approved by a second credential and then PENDING, never by the one that created it', async () => {
      const { first, second, transfer } = await awaitingApproval();
      expect((await move(first, transfer.id, 'approvals')).body).toMatchObject({ status: 403, code: 'forbidden' });
      const approved = await move(second, transfer.id, 'approvals');
      expect(approved.status).toBe(200);
      expect(approved.body).toMatchObject({ status: 'PENDING', executionDate: null });
      expect((await move(second, transfer.id, 'approvals')).body).toMatchObject({ status: 422, code: 'invalid-status-transition' });
    });

    it('waits for approval even when scheduled, and is SCHEDULED once approved before its day', async () => {
      const { second, transfer } = await awaitingApproval({ scheduledDate: dayFromToday(5) });
      expect((await move(second, transfer.id, 'approvals')).body).toMatchObject({ status: 'SCHEDULED', scheduledDate: dayFromToday(5) });
    });

    it('is CANCELLED when rejected, by an approver or by its creator, and can no longer be approved', async () => {
      for (const by of ['first', 'second'] as const) {
        const world = await awaitingApproval();
        const rejected = await move(world[by], world.transfer.id, 'rejections');
        expect(rejected.status).toBe(200);
        expect(rejected.body.status).toBe('CANCELLED');
        const approver = by === 'first' ? world.second : world.first;
        expect((await move(approver, world.transfer.id, 'approvals')).body).toMatchObject({ status: 422, code: 'invalid-status-transition' });
      }
    });

    it('can be cancelled by its creator while it waits', async () => {
      const { first, transfer } = await awaitingApproval();
      expect((await move(first, transfer.id, 'cancellations')).body.status).toBe('CANCELLED');
    });

    it('needs transfers:approve to approve or reject', async () => {
      const { customerId, transfer } = await awaitingApproval();
      const writer = await ctx.api.app.credentials.create.execute({ customerId, scopes: ['transfers:read', 'transfers:write'] });
      const token = await ctx.api.login(writer);
      for (const what of ['approvals', 'rejections'] as const) {
        expect((await move(token, transfer.id, what)).body).toMatchObject({ status: 403, code: 'insufficient-scope' });
      }
    });

    itRacing('lets one of two approvals arriving together win; the other is told the transfer is no longer waiting', async () => {
      const { customerId, second, transfer } = await awaitingApproval();
      const third = await ctx.api.app.credentials.create.execute({ customerId });
      const results = await Promise.all([move(second, transfer.id, 'approvals'), move(await ctx.api.login(third), transfer.id, 'approvals')]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
      expect(results.find((r) => r.status === 422)!.body.code).toBe('invalid-status-transition');
      const row = await ctx.api.db.knex('transfers').where({ id: transfer.id }).first();
      expect(row).toMatchObject({ status: 'PENDING', version: 2 });
    });

    itRacing('settles an approval racing a cancellation on one outcome, the loser refused', async () => {
      const { first, second, transfer } = await awaitingApproval();
      const [approval, cancellation] = await Promise.all([move(second, transfer.id, 'approvals'), move(first, transfer.id, 'cancellations')]);
      const final = (await ctx.api.call('get', `/v1/transfers/${transfer.id}`, { token: first })).body.status;
      if (final === 'PENDING') {
        expect(approval.status).toBe(200);
        expect(cancellation.body.code).toBe('transfer-not-cancelable');
      } else {
        expect(final).toBe('CANCELLED');
        expect(cancellation.status).toBe(200);
        expect(approval.body.code).toBe('invalid-status-transition');
      }
    });
  });
});
