import { A_CBU } from '@rcs/domain/testing';
import { itRacing, useTestApi } from '../support/test-api';
import { activeAccount, key } from '../support/fixtures';
import { balanceOf, currentAccountsOf, dayFromToday, fund, outgoing, postTransfer, PROVEEDOR, SIMULATED } from '../support/transfer-fixtures';

describe('POST /v1/sandbox/transfer-runs: the transfer worker', () => {
  const ctx = useTestApi({ BANK_PROVIDER_TIMEOUT_MS: '200' });
  const accounts = {} as Awaited<ReturnType<typeof currentAccountsOf>>;
  beforeAll(async () => {
    Object.assign(accounts, await currentAccountsOf(ctx.api, ctx.token));
  });
  const knex = () => ctx.api.db.knex;
  const run = (body?: object, token = ctx.token) => ctx.api.call('post', '/v1/sandbox/transfer-runs', { token, body });
  const transfer = async (id: number) => (await ctx.api.call('get', `/v1/transfers/${id}`, { token: ctx.token })).body;
  const pay = async (body: Record<string, unknown>, token = ctx.token) =>
    (await postTransfer(ctx.api, token, body)).body as { id: number; status: string; destination: Record<string, unknown> };
  const toCbu = (cbuCvu: string, amount: string) => outgoing(accounts.main.id, { amount, destination: { cbuCvu, counterParty: PROVEEDOR } });
  const movementsOf = async (transferId: number) =>
    (await knex()('movements').where({ transfer_id: transferId }).orderBy('id').select('account_id', 'movement_type', 'subtype', 'amount_minor')).map(
      (m: { account_id: string; movement_type: string; subtype: string; amount_minor: string }) => [
        Number(m.account_id),
        m.movement_type,
        m.subtype,
        m.amount_minor,
      ],
    );

  it('moves money between MAIN and SUB at once: a DEBIT and a CREDIT, COMPLETED, with transfer.completed', async () => {
    await fund(knex(), accounts.main.id, 10_000n);
    const [main, sub] = [await balanceOf(knex(), accounts.main.id), await balanceOf(knex(), accounts.sub.id)];
    const t = await pay({
      type: 'INTERNAL_TRANSFER',
      sourceAccountId: accounts.main.id,
      amount: '12.34',
      currencyCode: 'ARS',
      destination: { accountId: accounts.sub.id },
    });
    expect((await run()).body).toEqual({ completed: 1, failed: 0, inProgress: 0 });
    expect(await transfer(t.id)).toMatchObject({ status: 'COMPLETED', executionDate: expect.any(String), failureReason: null });
    expect(await balanceOf(knex(), accounts.main.id)).toBe(main - 1234n);
    expect(await balanceOf(knex(), accounts.sub.id)).toBe(sub + 1234n);
    expect(await movementsOf(t.id)).toEqual([
      [accounts.main.id, 'DEBIT', 'TRANSFER_OUT', '1234'],
      [accounts.sub.id, 'CREDIT', 'TRANSFER_IN', '1234'],
    ]);
    const events = await ctx.api.call('get', '/v1/events?type=transfer.completed', { token: ctx.token });
    expect(events.body[0].data.transfer).toMatchObject({ id: t.id, status: 'COMPLETED' });
  });

  it('answers a run repeated under its Idempotency-Key with the first answer, paying nothing more, and 409 for another body', async () => {
    await fund(knex(), accounts.main.id, 5_000n);
    const internal = { type: 'INTERNAL_TRANSFER', sourceAccountId: accounts.main.id, currencyCode: 'ARS', destination: { accountId: accounts.sub.id } };
    await pay({ ...internal, amount: '1.00' });
    const headers = key('transfer-run');
    const keyed = (body: object) => ctx.api.call('post', '/v1/sandbox/transfer-runs', { token: ctx.token, body, headers });
    const first = await keyed({});
    expect(first.body).toEqual({ completed: 1, failed: 0, inProgress: 0 });
    const later = await pay({ ...internal, amount: '2.00' });
    const again = await keyed({});
    expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([201, 'true', first.body]);
    expect((await transfer(later.id)).status).toBe('PENDING');
    const other = await keyed({ date: dayFromToday(1) });
    expect([other.status, other.body.code]).toEqual([409, 'idempotency-key-reuse']);
    expect((await run()).body).toEqual({ completed: 1, failed: 0, inProgress: 0 });
  });

  it('pays an OUTGOING_TRANSFER through the provider: debited once, COMPLETED, the provider holding one payout', async () => {
    await fund(knex(), accounts.main.id, 5_000n);
    const before = await balanceOf(knex(), accounts.main.id);
    const t = await pay(toCbu(A_CBU, '20.00'));
    expect((await run()).body).toEqual({ completed: 1, failed: 0, inProgress: 0 });
    expect(await transfer(t.id)).toMatchObject({ status: 'COMPLETED', executionDate: expect.any(String) });
    expect(await balanceOf(knex(), accounts.main.id)).toBe(before - 2000n);
    expect(await movementsOf(t.id)).toEqual([[accounts.main.id, 'DEBIT', 'TRANSFER_OUT', '2000']]);
    const payout = await fetch(`${ctx.api.bankUrl}/v1/payouts/tr-${t.id}`);
    expect(await payout.json()).toMatchObject({ payoutId: `tr-${t.id}`, amountMinor: '2000', state: 'COMPLETED', destination: { cbuCvu: A_CBU } });
    expect((await run()).body).toEqual({ completed: 0, failed: 0, inProgress: 0 });
  });

  it('fails a transfer the balance cannot cover with insufficient-balance, moving nothing', async () => {
    const balance = await balanceOf(knex(), accounts.main.id);
    const t = await pay(toCbu(A_CBU, ((Number(balance) + 1) / 100).toFixed(2)));
    expect((await run()).body).toEqual({ completed: 0, failed: 1, inProgress: 0 });
    expect(await transfer(t.id)).toMatchObject({ status: 'FAILED', failureReason: 'insufficient-balance', executionDate: null });
    expect(await balanceOf(knex(), accounts.main.id)).toBe(balance);
    expect(await movementsOf(t.id)).toEqual([]);
  });

  it("fails a transfer whose destination, another customer's receivable account, stopped taking payments after it was made: nothing is debited or paid out", async () => {
    await fund(knex(), accounts.main.id, 5_000n);
    const before = await balanceOf(knex(), accounts.main.id);
    const { account } = await activeAccount(ctx.api, ctx.otherToken);
    const { cvu } = (await ctx.api.call('get', `/v1/receivable-accounts/${account.id}`, { token: ctx.otherToken })).body;
    const t = await pay(toCbu(cvu, '7.00'));
    expect(t.status).toBe('PENDING');
    expect((await ctx.api.call('delete', `/v1/receivable-accounts/${account.id}`, { token: ctx.otherToken })).status).toBe(204);
    expect((await run()).body).toEqual({ completed: 0, failed: 1, inProgress: 0 });
    expect(await transfer(t.id)).toMatchObject({ status: 'FAILED', failureReason: expect.stringMatching(/^destination-not-payable: .*not ACTIVE/) });
    expect([await balanceOf(knex(), accounts.main.id), await movementsOf(t.id)]).toEqual([before, []]);
    expect((await fetch(`${ctx.api.bankUrl}/v1/payouts/tr-${t.id}`)).status).toBe(404);
  });

  it('returns the debit of a payout the destination rejects with a reversing movement, the debit left as it was', async () => {
    await fund(knex(), accounts.main.id, 700n);
    const before = await balanceOf(knex(), accounts.main.id);
    const t = await pay(toCbu(SIMULATED.rejected, '7.00'));
    expect((await run()).body).toEqual({ completed: 0, failed: 1, inProgress: 0 });
    expect(await transfer(t.id)).toMatchObject({ status: 'FAILED', failureReason: 'destination-rejected' });
    expect(await balanceOf(knex(), accounts.main.id)).toBe(before);
    expect(await movementsOf(t.id)).toEqual([
      [accounts.main.id, 'DEBIT', 'TRANSFER_OUT', '700'],
      [accounts.main.id, 'CREDIT', 'TRANSFER_REVERSAL', '700'],
    ]);
    const failed = await ctx.api.call('get', '/v1/events?type=transfer.failed', { token: ctx.token });
    expect(failed.body[0].data.transfer).toMatchObject({ id: t.id, failureReason: 'destination-rejected' });
  });

  it('leaves a payout the provider has not finished IN_PROGRESS and records its outcome on a later run', async () => {
    await fund(knex(), accounts.main.id, 300n);
    const t = await pay(toCbu(SIMULATED.acceptedThenCompleted, '3.00'));
    expect((await run()).body).toEqual({ completed: 0, failed: 0, inProgress: 1 });
    expect((await transfer(t.id)).status).toBe('IN_PROGRESS');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await run()).body).toEqual({ completed: 1, failed: 0, inProgress: 0 });
    expect(await transfer(t.id)).toMatchObject({ status: 'COMPLETED' });
    expect(await movementsOf(t.id)).toEqual([[accounts.main.id, 'DEBIT', 'TRANSFER_OUT', '300']]);
  });

  it('finds out from the provider whether a payout that timed out was taken, and never sends it twice', async () => {
    await fund(knex(), accounts.main.id, 400n);
    const t = await pay(toCbu(SIMULATED.answersLate, '4.00'));
    expect((await run()).body).toEqual({ completed: 0, failed: 0, inProgress: 1 });
    expect((await run()).body).toEqual({ completed: 1, failed: 0, inProgress: 0 });
    expect(await movementsOf(t.id)).toEqual([[accounts.main.id, 'DEBIT', 'TRANSFER_OUT', '400']]);
  });

  it('pays an alias-only transfer to the account its alias named when it was created', async () => {
    await fund(knex(), accounts.main.id, 100n);
    const created = await pay(outgoing(accounts.main.id, { amount: '1.00', destination: { alias: 'pago.norte', counterParty: PROVEEDOR } }));
    expect(created.destination).toMatchObject({ alias: 'pago.norte', cbuCvu: expect.stringMatching(/^\d{22}$/) });
    expect((await run()).body).toEqual({ completed: 1, failed: 0, inProgress: 0 });
    expect(await transfer(created.id)).toMatchObject({ status: 'COMPLETED', destination: created.destination });
  });

  it('takes a SCHEDULED transfer on its day, not before', async () => {
    await fund(knex(), accounts.main.id, 100n);
    const t = await pay(toCbu(A_CBU, '1.00'));
    const later = await pay({ ...toCbu(A_CBU, '1.00'), scheduledDate: dayFromToday(2) });
    await run();
    expect((await transfer(t.id)).status).toBe('COMPLETED');
    expect((await transfer(later.id)).status).toBe('SCHEDULED');
    expect((await run({ date: dayFromToday(2) })).body).toEqual({ completed: 1, failed: 0, inProgress: 0 });
    expect((await transfer(later.id)).status).toBe('COMPLETED');
  });

  it("runs the caller's transfers only", async () => {
    const theirs = (await currentAccountsOf(ctx.api, ctx.otherToken)).main;
    const t = await pay(outgoing(theirs.id, { amount: '1.00' }), ctx.otherToken);
    expect((await run()).body).toEqual({ completed: 0, failed: 0, inProgress: 0 });
    expect((await ctx.api.call('get', `/v1/transfers/${t.id}`, { token: ctx.otherToken })).body.status).toBe('PENDING');
    expect((await run({}, ctx.otherToken)).body).toEqual({ completed: 0, failed: 1, inProgress: 0 });
  });

  itRacing('pays one of two transfers racing for the last peso and fails the other, never overdrawing', async () => {
    const balance = await balanceOf(knex(), accounts.sub.id);
    const amount = (Number(balance) / 100).toFixed(2);
    const [a, b] = [await pay(outgoing(accounts.sub.id, { amount })), await pay(outgoing(accounts.sub.id, { amount }))];
    const runs = await Promise.all([run(), run()]);
    expect(runs.reduce((n, r) => n + (r.body as { completed: number }).completed, 0)).toBe(1);
    expect(runs.reduce((n, r) => n + (r.body as { failed: number }).failed, 0)).toBe(1);
    expect([(await transfer(a.id)).status, (await transfer(b.id)).status].sort()).toEqual(['COMPLETED', 'FAILED']);
    expect(await balanceOf(knex(), accounts.sub.id)).toBe(0n);
  });
});
