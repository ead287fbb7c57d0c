import { itRacing, useTestApi } from '../support/test-api';
import { activeAccount, key } from '../support/fixtures';
import { queuedBehind } from '../support/lock-queue';
import { makeCertificates, startReceiver, type Receiver } from '../support/https-receiver';

const certificates = makeCertificates();

/**
 * Scheduling attempts locks each webhook's next-due row. A batch of results recording the retries of webhooks whose
 * endpoints answered in the order high, low, while a dispatch schedules attempts for both: were the retries
 * scheduled webhook by webhook in that order, each would hold a row the other waits for, and PostgreSQL would end
 * one of them (the dispatch, here) as a deadlock.
 */
describe('webhook retries and a dispatch to the same webhooks', () => {
  const endpoint = {} as { down: Receiver };
  afterAll(async () => endpoint.down?.close());
  const ctx = useTestApi({ WEBHOOK_CA_FILE: certificates.caFile, WEBHOOK_TIMEOUT_MS: '2000' });

  itRacing('take the webhooks’ rows in one order: both commit', async () => {
    endpoint.down = await startReceiver(certificates, (_req, res) => {
      res.statusCode = 503;
      res.end();
    });
    const { app, db } = ctx.api;
    const register = async () =>
      (await ctx.api.call('post', '/v1/webhooks', { token: ctx.token, body: { url: endpoint.down.url, events: ['receivable.created'] } })).body.id as number;
    const [first, low, high] = [await register(), await register(), await register()];
    const { account } = await activeAccount(ctx.api, ctx.token);
    const create = (n: number) =>
      ctx.api.call('post', '/v1/receivables', {
        token: ctx.token,
        body: { receivableAccountId: account.id, amount: '10.00', currencyCode: 'ARS', receivableType: 'INVOICE' },
        headers: key(`lock-order-${n}`),
      });
    await create(1);
    await app.webhooks.dispatch.execute();
    const claimed = await app.webhooks.deliver.claim({ limit: 100, perWebhook: 100 });
    const of = (webhookId: number) => claimed.find((d) => d.delivery.webhookId === webhookId)!;

    // `first`'s result is recorded alone and waits for its webhook row; `high`'s and `low`'s arrive meanwhile, in
    // that order, and are recorded together once it is done, their retries waiting for `high`'s next-due row.
    const webhookRow = await db.knex.transaction();
    await webhookRow('webhooks').where({ id: first }).forUpdate();
    const dueRow = await db.knex.transaction();
    await dueRow('webhook_next_due').where({ webhook_id: high }).forUpdate();
    const pidOf = async (trx: typeof webhookRow) => (await trx.raw<{ rows: { pid: number }[] }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const [webhookRowPid, dueRowPid] = [await pidOf(webhookRow), await pidOf(dueRow)];
    const sending: Promise<unknown>[] = [];
    try {
      sending.push(app.webhooks.deliver.send(of(first)));
      await queuedBehind(db.knex, webhookRowPid, 1);
      for (const webhookId of [high, low]) await new Promise<void>((answered) => sending.push(app.webhooks.deliver.send(of(webhookId), answered)));
      await webhookRow.commit();
      await queuedBehind(db.knex, dueRowPid, 1);
      await create(2);
      const dispatching = app.webhooks.dispatch.execute();
      sending.push(dispatching);
      await queuedBehind(db.knex, dueRowPid, 2);
    } finally {
      await webhookRow.commit().catch(() => undefined);
      await dueRow.commit();
    }
    await Promise.all(sending);

    const attempts = await db.knex('webhook_deliveries').whereIn('webhook_id', [low, high]).orderBy(['webhook_id', 'id']);
    // Each webhook: the first event's attempt FAILED, its retry and the second event's attempt PENDING.
    expect(attempts.map((a) => [a.webhook_id, a.attempt, a.status])).toEqual(
      [low, high].flatMap((id) => [
        [String(id), 1, 'FAILED'],
        [String(id), 2, 'PENDING'],
        [String(id), 1, 'PENDING'],
      ]),
    );
  });
});
