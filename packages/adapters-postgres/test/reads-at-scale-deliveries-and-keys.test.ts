import { Webhook } from '@rcs/domain';
import { KnexWebhookQueries } from '../src/repositories/knex-webhook-repository';
import { readsOf, scaleDatabase } from './support/reads';

/**
 * Routine statements over webhook attempts and idempotency keys read what they answer or take, however many rows
 * they pass over would hold: each test seeds thousands of rows a statement used to read, and counts what it reads
 * now (support/reads.ts). Each of these read every such row before its fix (bench/README.md, "Reads that grew with
 * the rows they did not return").
 */
describe(`reads of webhook attempts and idempotency keys that do not grow with the rows (${process.env.RCS_TEST_STORAGE})`, () => {
  const s = scaleDatabase();

  it("reads one event type's attempts of one status from a webhook's history without the other types' or statuses'", async () => {
    const customerId = await s.aCustomer('history by type and status');
    const subscription = { url: 'https://erp.example/hooks', events: ['receivable.paid' as const] };
    const webhook = await s.uow.run((tx) => tx.webhooks.insert(Webhook.register(customerId, subscription, { sealed: 's', tail: '0000' }, new Date())));
    // 3,000 attempts of receivable.paid a second apart, delivered but every 300th failed; 3,000 failed of movement.created.
    await s.db.knex.raw(
      `INSERT INTO webhook_deliveries (webhook_id, customer_id, event_id, event_type, attempt, status, payload, created_at)
       SELECT ?, ?, 'evt_h' || n, CASE WHEN n > 3000 THEN 'movement.created' ELSE 'receivable.paid' END, 1,
         CASE WHEN n % 300 = 0 OR n > 3000 THEN 'FAILED' ELSE 'SUCCESS' END, '{}', now() - n * interval '1 second'
       FROM generate_series(1, 6000) n`,
      [webhook.id, customerId],
    );
    await s.db.knex.raw('ANALYZE webhook_deliveries');
    // Index reads only: taking type and status for independent, PostgreSQL expects 1,505 matches of the two, not 10,
    // and counts them with a scan of this small table, where it reads a large one through the index.
    const history = (status?: 'FAILED') =>
      readsOf(
        s.uow,
        ['webhook_deliveries'],
        (bound) =>
          new KnexWebhookQueries(() => bound.executor()).deliveries(
            { webhookId: webhook.id, customerId, eventType: 'receivable.paid', status },
            { page: 1, count: 20 },
          ),
        { scans: false },
      );

    const failed = await history('FAILED');
    expect([failed.result.total, failed.result.items.map((d) => d.status)]).toEqual([10, Array(10).fill('FAILED')]);
    expect(failed.read).toBeLessThan(60);
    const all = await history();
    expect(all.result.total).toBe(3_000);
    const created = all.result.items.map((d) => d.createdAt.getTime());
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });

  it('purges a batch of the oldest expired idempotency keys reading about that many, however many keys are live', async () => {
    const NOW = new Date('2026-03-10T12:00:00.000Z');
    // 40,000 live keys with narrow stored answers, 6,000 expired; the job's batch is 5,000.
    await s.db.knex.raw(
      `INSERT INTO idempotency_keys (credential_id, key, fingerprint, response_status, response_body, created_at, expires_at)
       SELECT n % 7 + 1, 'key-' || n, 'f', 201, '{}', ?::timestamptz - interval '1 day',
              ?::timestamptz + CASE WHEN n <= 6000 THEN -n ELSE n END * interval '1 second'
       FROM generate_series(1, 46000) n`,
      [NOW, NOW],
    );
    await s.db.knex.raw('ANALYZE idempotency_keys');

    const { result, read } = await readsOf(s.uow, ['idempotency_keys'], (bound) => bound.run((tx) => tx.idempotency.purgeExpired(NOW, 5_000)));

    expect(result).toBe(5_000);
    // The batch's index entries and its rows, locked then deleted: not the 46,000.
    expect(read).toBeLessThan(15_000);
    const left = await s.db.knex('idempotency_keys').where('expires_at', '<=', NOW).count<{ n: string }[]>({ n: '*' });
    expect(Number(left[0].n)).toBe(1_000);
  });
});
