import { useTestApi } from '../support/test-api';
import { parties } from '../support/fixtures';

describe('receivable account provisioning when the provider misbehaves', () => {
  const ctx = useTestApi({ PROVISIONING_MAX_ATTEMPTS: '2', PROVISIONING_RETRY_BASE_MS: '1', BANK_PROVIDER_TIMEOUT_MS: '100' });
  let keys = 0;
  const openFor = async (holder: string) => {
    const { client } = await parties(ctx.api, ctx.token, holder);
    return (
      await ctx.api.call('post', '/v1/receivable-accounts', { token: ctx.token, body: { clientId: client.id }, headers: { 'Idempotency-Key': `m-${++keys}` } })
    ).body;
  };
  const statusOf = async (id: number) => (await ctx.api.call('get', `/v1/receivable-accounts/${id}`, { token: ctx.token })).body.status;

  it.each([['SIM-REJECT'], ['SIM-DOWN'], ['SIM-TIMEOUT'], ['SIM-INVALID']])('disables the account when the provider answers %s, never a 500', async (magic) => {
    const account = await openFor(magic);
    await ctx.api.provisionAll();
    expect(await statusOf(account.id)).toBe('DISABLED');
    const row = await ctx.api.db.knex('receivable_accounts').where({ id: account.id }).first();
    expect(row.last_provisioning_error).toEqual(expect.any(String));
    const events = await ctx.api.db.knex('outbox_events').where({ type: 'receivable-account.disabled' });
    expect(events.map((e) => e.data.receivableAccount.id)).toContain(account.id);
  });

  it("says an account the provider refused was PROVIDER_REJECTED, with the provider's message", async () => {
    const account = await openFor('SIM-REJECT');
    await ctx.api.provisionAll();
    const res = await ctx.api.call('get', `/v1/receivable-accounts/${account.id}`, { token: ctx.token });
    expect(res.body).toMatchObject({ status: 'DISABLED', disabledReason: 'PROVIDER_REJECTED', disabledMessage: 'holder rejected by compliance (simulated)' });
  });

  it("says an account given up on after failed attempts was PROVISIONING_RETRIES_EXHAUSTED, without the failures' internals", async () => {
    const account = await openFor('SIM-DOWN');
    await ctx.api.provisionAll();
    const res = await ctx.api.call('get', `/v1/receivable-accounts/${account.id}`, { token: ctx.token });
    expect(res.body).toMatchObject({ status: 'DISABLED', disabledReason: 'PROVISIONING_RETRIES_EXHAUSTED', disabledMessage: null });
  });

  it('activates after a flaky provider recovers', async () => {
    const account = await openFor('SIM-FLAKY');
    await ctx.api.provisionAll();
    expect(await statusOf(account.id)).toBe('ACTIVE');
  });
});
