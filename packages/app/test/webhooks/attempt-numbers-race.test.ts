import { itRacing, useTestApi } from '../support/test-api';
import { activeAccount, key } from '../support/fixtures';
import { queuedBehind } from '../support/lock-queue';
import { makeCertificates, startReceiver, type Receiver } from '../support/https-receiver';

const certificates = makeCertificates();

/**
 * A manual redelivery of an event racing the delivery worker's automatic retry of it: each attempt gets a number of
 * its own, and neither is lost, whichever of them takes the webhook first.
 */
describe('webhook attempt numbers under concurrency', () => {
  const endpoint = {} as { down: Receiver };
  afterAll(async () => endpoint.down?.close());
  const ctx = useTestApi({ WEBHOOK_CA_FILE: certificates.caFile, WEBHOOK_TIMEOUT_MS: '2000' });

  for (const first of ['redelivery', 'retry'] as const) {
    itRacing(`numbers a redelivery and the retry of a failed attempt apart, the ${first} taking the webhook first`, async () => {
      endpoint.down ??= await startReceiver(certificates, (_req, res) => {
        res.statusCode = 503;
        res.end();
      });
      const { app, db } = ctx.api;
      const webhook = (await ctx.api.call('post', '/v1/webhooks', { token: ctx.token, body: { url: endpoint.down.url, events: ['receivable.created'] } })).body;
      const { account } = await activeAccount(ctx.api, ctx.token);
      const body = { receivableAccountId: account.id, amount: '10.00', currencyCode: 'ARS', receivableType: 'INVOICE' };
      await ctx.api.call('post', '/v1/receivables', { token: ctx.token, body, headers: key('race') });
      await app.webhooks.dispatch.execute();
      const [claimed] = (await app.webhooks.deliver.claim({ limit: 100, perWebhook: 100 })).filter((d) => d.delivery.webhookId === webhook.id);
      const { eventId } = claimed.delivery;
      const { customer_id: customerId } = await db.knex('webhooks').where({ id: webhook.id }).first('customer_id');

      // A transaction holds the webhook while both start; each then queues for it in the order given.
      const holder = await db.knex.transaction();
      await holder('webhooks').where({ id: webhook.id }).forUpdate();
      const { rows } = await holder.raw<{ rows: { pid: number }[] }>('SELECT pg_backend_pid() AS pid');
      const redeliver = () => app.webhooks.redeliver.execute({ customerId: Number(customerId), webhookId: webhook.id, eventId });
      const retry = () => app.webhooks.deliver.send(claimed);
      const racing: Promise<unknown>[] = [];
      try {
        racing.push((first === 'redelivery' ? redeliver : retry)());
        await queuedBehind(db.knex, rows[0].pid, 1);
        racing.push((first === 'redelivery' ? retry : redeliver)());
        await queuedBehind(db.knex, rows[0].pid, 2);
      } finally {
        await holder.commit();
      }
      await Promise.all(racing);

      const attempts = await db.knex('webhook_deliveries').where({ webhook_id: webhook.id, event_id: eventId }).orderBy('attempt');
      // The first attempt and the redelivery failed; the retry of the first is scheduled, not lost to the redelivery.
      expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
      expect(attempts.map((a) => a.status).sort()).toEqual(['FAILED', 'FAILED', 'PENDING']);
      expect(attempts.find((a) => a.status === 'PENDING').next_attempt_at).not.toBeNull();
    });
  }
});
