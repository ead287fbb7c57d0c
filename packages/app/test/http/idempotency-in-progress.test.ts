import request from 'supertest';
import { createDatabase } from '@rcs/adapters-postgres';
import { itOnRealServer, waitForLockWaiters } from '@rcs/adapters-postgres/testing';
import { activeAccount, key } from '../support/fixtures';
import { serviceOn } from '../support/service-instance';
import { useTestApi } from '../support/test-api';

/** CONTRACT: a repeat whose first request is still running waits for it, up to the lock timeout, then gets 409. */
describe('an idempotency key whose first request is still running', () => {
  const ctx = useTestApi();

  itOnRealServer('a request waiting on a lock another holds needs two connections; PGlite has one')(
    'answers the repeat 409 idempotency-request-in-progress with Retry-After once the wait runs out, and the first request completes alone',
    async () => {
      const { account } = await activeAccount(ctx.api, ctx.token);
      const receivable = (
        await ctx.api.call('post', '/v1/receivables', {
          token: ctx.token,
          headers: key(),
          body: { receivableAccountId: account.id, amount: '25.00', currencyCode: 'ARS', receivableType: 'INVOICE' },
        })
      ).body;
      // A second instance that gives up waiting on a lock after 300 ms instead of 10 s, so the test does not wait.
      const impatientKnex = createDatabase({ url: ctx.api.db.url, schema: ctx.api.db.schema, poolSize: 2, lockTimeoutMs: 300 });
      const impatient = serviceOn(impatientKnex).http;
      const blocker = await ctx.api.db.knex.transaction();
      try {
        // Holding the receivable keeps the first request running after it claimed its key.
        await blocker.raw('SELECT id FROM receivables WHERE id = ? FOR UPDATE', [receivable.id]);
        const patch = { token: ctx.token, body: { status: 'PAID' }, headers: key('held') };
        const first = ctx.api.call('patch', `/v1/receivables/${receivable.id}/status`, patch);
        await waitForLockWaiters(ctx.api.db.knex, 1);

        const repeat = await request(impatient)
          .patch(`/v1/receivables/${receivable.id}/status`)
          .set('Authorization', `Bearer ${ctx.token}`)
          .set(patch.headers)
          .send(patch.body);
        expect(repeat.status).toBe(409);
        expect(repeat.body.code).toBe('idempotency-request-in-progress');
        expect(repeat.headers['retry-after']).toBe('1');

        await blocker.commit();
        expect((await first).status).toBe(200);
        const paid = await ctx.api.db
          .knex('outbox_events')
          .where({ type: 'receivable.paid' })
          .whereRaw(`data::jsonb -> 'receivable' ->> 'id' = ?`, [String(receivable.id)]);
        expect(paid).toHaveLength(1);
      } finally {
        if (!blocker.isCompleted()) await blocker.rollback();
        await impatientKnex.destroy();
      }
    },
  );
});
