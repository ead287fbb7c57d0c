import { itRacing, useTestApi } from '../support/test-api';
import { activeAccount, key } from '../support/fixtures';
import { queuedBehind } from '../support/lock-queue';
import { KnexUnitOfWork } from '@rcs/adapters-postgres';

/**
 * An activation committing while the dispatcher or the delivery worker is holding attempts for the webhook it read
 * as PAUSED: the activation releases what it sees held, so attempts held by a transaction it could not see would
 * stay held on an ACTIVE webhook, never sent, until the retention window expired them.
 */
describe('webhook activation racing the dispatcher and the delivery worker', () => {
  const ctx = useTestApi();
  const call = (method: 'post' | 'get', url: string, body?: unknown) => ctx.api.call(method, url, { token: ctx.token, body, headers: key('act') });
  let customerId: number;
  let credentialId: number;

  beforeAll(async () => {
    const { db } = ctx.api;
    const row = await db
      .knex('credentials')
      .join('customers', 'customers.id', 'credentials.customer_id')
      .where('customers.name', 'Sandbox Customer 1')
      .first('credentials.id', 'customers.id as customer_id');
    [credentialId, customerId] = [Number(row.id), Number(row.customer_id)];
  });

  const newReceivable = async () => {
    const { account } = await activeAccount(ctx.api, ctx.token);
    await call('post', '/v1/receivables', { receivableAccountId: account.id, amount: '10.00', currencyCode: 'ARS', receivableType: 'INVOICE' });
  };

  /**
   * Runs `racing` while the real activation of `webhookId` has released what it saw held and not committed yet
   * (run under a key, its transaction held open); commits it once `racing` waits for it or has finished.
   */
  async function duringActivation(webhookId: number, racing: () => Promise<unknown>): Promise<void> {
    const { app, db } = ctx.api;
    let activated!: () => void;
    let commit!: () => void;
    const released = new Promise<void>((resolve) => (activated = resolve));
    const gate = new Promise<void>((resolve) => (commit = resolve));
    const activation = app.idempotency.execution.run(
      { credentialId, key: `activation-race-${webhookId}`, fingerprint: 'f' },
      async (bound) => {
        await bound.webhooks.activate.execute({ customerId, webhookId });
        activated();
        await gate;
        return { status: 200, body: null };
      },
      () => undefined,
    );
    await released;
    // The activation's session: the one holding this schema's webhooks table for its update.
    const holder = await db.knex.raw<{ rows: { pid: number }[] }>(
      "SELECT pid FROM pg_locks WHERE relation = 'webhooks'::regclass AND mode = 'RowExclusiveLock' AND granted AND pid <> pg_backend_pid()",
    );
    expect(holder.rows).toHaveLength(1);
    const raced = racing();
    // Without the lock, the racer finishes first; with it, it queues behind the activation.
    const watching = new AbortController();
    await Promise.race([raced, queuedBehind(db.knex, holder.rows[0].pid, 1, watching.signal)]);
    watching.abort();
    commit();
    await activation;
    await raced;
  }

  const heldOf = async (webhookId: number) =>
    Number(
      (
        await ctx.api.db
          .knex('webhook_deliveries')
          .where({ webhook_id: webhookId, status: 'PENDING' })
          .whereNull('next_attempt_at')
          .whereNull('claimed_until')
          .count<{ count: string }[]>('* as count')
      )[0].count,
    );

  const registered = async (): Promise<{ id: number }> =>
    (await call('post', '/v1/webhooks', { url: 'https://example.com/hooks', events: ['receivable.created'] })).body;

  /** A webhook paused after one attempt of it was dispatched, due. */
  const pausedWithDueAttempt = async () => {
    const webhook = await registered();
    await newReceivable();
    await ctx.api.app.webhooks.dispatch.execute();
    await call('post', `/v1/webhooks/${webhook.id}/pauses`);
    return webhook;
  };

  itRacing('dispatches due attempts, not held ones, for a webhook activated while the dispatch ran', async () => {
    const webhook = await registered();
    await call('post', `/v1/webhooks/${webhook.id}/pauses`);
    await ctx.api.app.webhooks.dispatch.execute();
    await newReceivable();

    await duringActivation(webhook.id, () => ctx.api.app.webhooks.dispatch.execute());

    expect((await call('get', `/v1/webhooks/${webhook.id}`)).body.status).toBe('ACTIVE');
    expect(await heldOf(webhook.id)).toBe(0);
    const due = await ctx.api.db.knex('webhook_deliveries').where({ webhook_id: webhook.id, status: 'PENDING' }).whereNotNull('next_attempt_at');
    expect(due).toHaveLength(1);
  });

  itRacing('gives back due, not held, an attempt claimed for a webhook activated while the claim ran', async () => {
    const webhook = await pausedWithDueAttempt();
    const claim = () => ctx.api.app.webhooks.deliver.claim({ limit: 100, perWebhook: 100 });

    await duringActivation(webhook.id, claim);

    expect(await heldOf(webhook.id)).toBe(0);
    const sent = (await claim()).filter((d) => d.delivery.webhookId === webhook.id);
    expect(sent).toHaveLength(1);
  });

  itRacing('a claim holding attempts does not wait for a webhook being activated, so neither is undone as a deadlock', async () => {
    const webhook = await pausedWithDueAttempt();
    await newReceivable();
    await ctx.api.app.webhooks.dispatch.execute(); // one attempt due (before the pause), one held
    const { db } = ctx.api;
    const uow = new KnexUnitOfWork(db.knex);
    let claimed!: (pid: number) => void;
    let resume!: () => void;
    const claimant = new Promise<number>((resolve) => (claimed = resolve));
    const gate = new Promise<void>((resolve) => (resume = resolve));
    // The claim leases the due attempt (locking its webhook's next-due row), then checks the webhook, as the worker does.
    const claim = uow.begin((bound) =>
      bound.run(async (tx) => {
        claimed((await bound.executor().raw<{ rows: { pid: number }[] }>('SELECT pg_backend_pid() AS pid')).rows[0].pid);
        const now = new Date();
        await tx.webhookDeliveries.claimDue({ now, claimedUntil: new Date(now.getTime() + 30_000), limit: 100, perWebhook: 100, skipWebhooks: [], shares: [] });
        await gate;
        return tx.webhooks.lockedStatuses([webhook.id], false);
      }),
    );
    const pid = await claimant;
    // The activation locks the webhook, then queues behind the claim to release the held attempt.
    const activation = call('post', `/v1/webhooks/${webhook.id}/activations`);
    await queuedBehind(db.knex, pid, 1);
    resume();
    const [statuses, activated] = await Promise.all([claim, activation]);
    expect(statuses.size).toBe(0);
    expect(activated.status).toBe(200);
  });
});
