import { spawn } from 'node:child_process';
import path from 'node:path';
import pino from 'pino';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { LOST_ATTEMPT, type Application } from '@rcs/domain';
import { createDatabase } from '@rcs/adapters-postgres';
import { itOnRealServer, openTestDatabase, type TestDatabase } from '@rcs/adapters-postgres/testing';
import { loadConfig } from '../src/config';
import { buildContainer, TYPES } from '../src/container';
import { webhookWorkers } from '../src/workers/webhook-workers';
import { backendsGone, childUrl } from './support/killed-child';
import { seedMoney } from './support/settlement-world';
import { makeCertificates, startReceiver, type Receiver } from './support/https-receiver';

const certificates = makeCertificates();
const ENV = { APP_MODE: 'sandbox', JWT_SECRET: 'x'.repeat(40), WORKERS_ENABLED: 'false', WEBHOOK_CA_FILE: certificates.caFile };

/** An instance with the same webhook secret key as the child, so both sign with the webhook's secret. */
function instanceOn(db: TestDatabase) {
  const knex = createDatabase({ url: db.url, schema: db.schema, poolSize: 4, embedded: db.storage === 'pglite' });
  const config = loadConfig({ ...ENV, WEBHOOK_DISPATCH_POLL_MS: '10', WEBHOOK_DELIVERY_POLL_MS: '10' });
  const container = buildContainer(config, pino({ level: 'silent' }), knex, {
    jwtSecret: 'x'.repeat(40),
    webhookSecretKey: 'w'.repeat(40),
    bankProviderUrl: 'http://127.0.0.1:9',
  });
  return { app: container.get<Application>(TYPES.Application), knex, config };
}

/** Nothing dispatched or leased is lost when the process running the webhook workers dies at any statement. */
describe('webhook delivery across a SIGKILL', () => {
  let db: TestDatabase;
  let receiver: Receiver;
  beforeAll(async () => {
    db = await openTestDatabase();
    receiver = await startReceiver(certificates);
  });
  afterAll(async () => {
    await receiver.close();
    await db.close();
  });

  const itOnServer = itOnRealServer("the next instance sends while the test polls the database: on PGlite's one connection they starve each other");
  const deliversAfterKillAt = (killAt: number) => async () => {
    const instance = instanceOn(db);
    try {
      const { customerId } = await seedMoney(db, instance.app, 4);
      const { secret } = await instance.app.webhooks.register.execute({ customerId, url: receiver.url, events: ['movement.created', 'receivable.created'] });
      const eventIds = (await db.knex('outbox_events').where({ customer_id: customerId }).whereIn('type', ['movement.created', 'receivable.created'])).map(
        (e: { id: string }) => e.id,
      );
      expect(eventIds.length).toBeGreaterThan(4);

      const script = path.join(__dirname, 'support', 'deliver-child.js');
      const child = spawn(process.execPath, [script, childUrl(db.url), db.schema, String(killAt), certificates.caFile], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let said = '';
      child.stdout.on('data', (chunk) => (said += chunk));
      const exit = await new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
      expect([exit, said]).toEqual(['SIGKILL', expect.stringMatching(/^killed before: /)]);
      await backendsGone(db.knex);

      // The next instance takes over: attempts leased by the dead one are due again once their lease lapses.
      const leased = await db
        .knex('webhook_deliveries')
        .whereIn('event_id', eventIds)
        .whereNotNull('claimed_until')
        .update({ claimed_until: new Date(Date.now() - 1) })
        .returning<Array<{ id: string; event_id: string; attempt: number }>>(['id', 'event_id', 'attempt']);
      const workers = webhookWorkers(instance.app, instance.config.webhooks, pino({ level: 'silent' }));
      workers.start();
      try {
        const deadline = Date.now() + 15_000;
        // Every attempt finished: an attempt the dead worker sent but never recorded is sent again (at least once).
        // Every event dispatched and none of its attempts pending, read in one statement: read apart, or with any
        // attempt standing for all, a dispatch committing meanwhile looked like every attempt done.
        const settled = async () => {
          const [{ events, pending }] = await db
            .knex('webhook_deliveries')
            .whereIn('event_id', eventIds)
            .select(db.knex.raw('count(DISTINCT event_id) AS events'), db.knex.raw("count(*) FILTER (WHERE status = 'PENDING') AS pending"));
          return Number(events) === eventIds.length && Number(pending) === 0;
        };
        while (!(await settled()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      } finally {
        await workers.stop();
      }
      const verifier = new StandardWebhook(secret);
      const mine = receiver.received.filter((r) => eventIds.includes(String(r.headers['webhook-id'])));
      expect(new Set(mine.map((r) => r.headers['webhook-id']))).toEqual(new Set(eventIds));
      for (const r of mine) {
        const headers = {
          'webhook-id': String(r.headers['webhook-id']),
          'webhook-timestamp': String(r.headers['webhook-timestamp']),
          'webhook-signature': String(r.headers['webhook-signature']),
        };
        expect((verifier.verify(r.body, headers) as { id: string }).id).toBe(headers['webhook-id']);
      }
      const attempts = await db.knex('webhook_deliveries').whereIn('event_id', eventIds).select('event_id', 'status');
      expect(attempts.filter((a: { status: string }) => a.status === 'PENDING')).toEqual([]);
      expect(new Set(attempts.filter((a: { status: string }) => a.status === 'SUCCESS').map((a: { event_id: string }) => a.event_id))).toEqual(
        new Set(eventIds),
      );
      // The history shows what the receiver may have had: each attempt the dead worker held ended with no answer,
      // and its resend as an attempt of its own after it.
      const history = await db.knex('webhook_deliveries').whereIn('event_id', eventIds).select('id', 'event_id', 'attempt', 'status', 'failure_reason');
      for (const lost of leased) {
        expect(history.find((a: { id: string }) => a.id === lost.id)).toMatchObject({ status: 'FAILED', failure_reason: LOST_ATTEMPT.failureReason });
        expect(history).toContainEqual(expect.objectContaining({ event_id: lost.event_id, attempt: lost.attempt + 1, status: 'SUCCESS' }));
      }
    } finally {
      await instance.knex.destroy();
    }
  };
  for (const killAt of [12, 30, 60]) {
    itOnServer(`delivers every event at least once, each verifying, when the worker dies before statement ${killAt}`, deliversAfterKillAt(killAt));
  }
});
