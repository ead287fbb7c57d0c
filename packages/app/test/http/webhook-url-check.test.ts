import { sandboxUrlPolicy } from '@rcs/adapters-http';
import { key } from '../support/fixtures';
import { useTestApi } from '../support/test-api';

/**
 * A webhook's url is checked (in production: resolved, which may take seconds) before the Idempotency-Key's
 * transaction opens, so a slow nameserver holds no database connection; the use case checks again in it.
 */
describe('the webhook url check', () => {
  const ctx = useTestApi();
  afterEach(() => jest.restoreAllMocks());

  /** The connections in use at each check, the first check answering as `first` says. */
  function watchChecks(first: () => Promise<void>) {
    const inUse: number[] = [];
    const check = sandboxUrlPolicy.check.bind(sandboxUrlPolicy);
    jest.spyOn(sandboxUrlPolicy, 'check').mockImplementation(async (url) => {
      inUse.push((ctx.api.db.knex.client as { pool: { numUsed(): number } }).pool.numUsed());
      if (inUse.length === 1) await first();
      return check(url);
    });
    return inUse;
  }
  const body = { url: 'https://erp.example/hooks', events: ['receivable.paid'] };

  it('runs before the key takes a connection, for a registration and a replacement', async () => {
    const inUse = watchChecks(() => new Promise((resolve) => setTimeout(resolve, 50)));
    const res = await ctx.api.call('post', '/v1/webhooks', { token: ctx.token, body, headers: key() });
    expect(res.status).toBe(201);
    expect(inUse[0]).toBe(0);

    inUse.length = 0;
    const replaced = await ctx.api.call('put', `/v1/webhooks/${res.body.id}`, {
      token: ctx.token,
      body: { url: 'https://erp.example/other' },
      headers: key(),
    });
    expect(replaced.status).toBe(200);
    expect(inUse[0]).toBe(0);
  });

  it('refuses unknown event types before looking the url up, as registration always has (400 invalid-event-type)', async () => {
    const inUse = watchChecks(() => Promise.resolve());
    const unknown = await ctx.api.call('post', '/v1/webhooks', { token: ctx.token, body: { ...body, events: ['receivable.paid', 'nope'] }, headers: key() });
    expect([unknown.status, unknown.body.code]).toEqual([400, 'invalid-event-type']);
    const badForm = await ctx.api.call('post', '/v1/webhooks', {
      token: ctx.token,
      body: { url: 'http://erp.example/hooks', events: ['nope'] },
      headers: key(),
    });
    expect([badForm.status, badForm.body.code]).toEqual([400, 'validation']);
    expect(inUse).toEqual([]);
  });
});
