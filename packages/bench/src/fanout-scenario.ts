import type { Knex } from 'knex';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { createDatabase } from '@rcs/adapters-postgres';
import { EVENT_TYPES } from '@rcs/domain';
import { databaseCpuMeter, ownCpuSeconds, withCpuCost } from './cpu';
import { httpLoad } from './load';
import { startReceiver, type ReceiverProcess } from './receiver-process';
import type { Row } from './report';
import { seedReceivables } from './seed';
import { startService, type ServiceProcess } from './service-process';
import { statementStats, statementTable } from './statement-stats';
import { progress, runningProgress, type Measurement } from './stats';
import { timedRun } from './timed-run';

export interface FanoutOptions {
  /** PAID receivables settled in one run: an event each (receivable.settled), and a few per account. */
  readonly receivables: number;
  /** Webhooks of the customer, each subscribed to every event type, each at its own path of the receiver. */
  readonly webhooks: number;
  readonly httpWorkers: number;
  /** How long the plain generator (baseline (e)) runs. */
  readonly seconds: number;
}

/**
 * Connections to one endpoint: the service's default (WEBHOOK_MAX_CONNECTIONS_PER_ENDPOINT), passed to it
 * explicitly so that the plain generator opens exactly as many to the same receiver.
 */
const CONNECTIONS_PER_ENDPOINT = 8;
const PER_ACCOUNT = 10;
/** A run that delivers nothing more for this long has lost what it did not deliver. */
const STALL_MS = 60_000;

const pendingEvents = async (db: pg.Client, customerId: string) =>
  Number(
    (await db.query<{ n: string }>('SELECT count(*) AS n FROM outbox_pending p JOIN outbox_events e ON e.seq = p.seq WHERE e.customer_id = $1', [customerId]))
      .rows[0].n,
  );

/** Waits until the receiver holds `expected` distinct verified deliveries, or nothing more came for STALL_MS. */
async function awaitDeliveries(receiver: ReceiverProcess, expected: number, started: number) {
  const running = runningProgress();
  let counts = await receiver.counts();
  for (let progressAt = Date.now(), last = -1; counts.distinct < expected && Date.now() - progressAt < STALL_MS; counts = await receiver.counts()) {
    if (counts.distinct !== last) [progressAt, last] = [Date.now(), counts.distinct];
    running.update(
      (Date.now() - started) / 1000,
      `${counts.distinct.toLocaleString('en')} / ${expected.toLocaleString('en')} verified, ${counts.failed} failed`,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  running.done();
  return counts;
}

/**
 * The burst and its delivery. The bench holds an EXCLUSIVE lock on webhook_deliveries while it registers the
 * webhooks and runs the settlement, so the service's dispatcher (which claims events, then inserts their
 * attempts) waits instead of sending the burst while it is being made; releasing the lock is the first dispatch,
 * and the clock and the CPU counters start there.
 */
async function deliverBurst(url: string, service: ServiceProcess, receiver: ReceiverProcess, options: FanoutOptions, customerId: string) {
  const token = await service.login();
  const lock = new pg.Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('BEGIN');
    await lock.query('LOCK TABLE webhook_deliveries IN EXCLUSIVE MODE');
    const secrets: string[] = [];
    const webhookIds: number[] = [];
    for (let n = 0; n < options.webhooks; n++) {
      const res = await service.call('POST', '/v1/webhooks', token, { url: receiver.urlOf(n), events: EVENT_TYPES });
      if (res.status !== 201) throw new Error(`POST /v1/webhooks answered ${res.status}: ${JSON.stringify(res.body)}`);
      const { id, secret } = res.body as { id: number; secret: string };
      [secrets[n], webhookIds[n]] = [secret, id];
    }
    await receiver.expect(secrets);
    progress(`settling ${options.receivables.toLocaleString('en')} PAID receivables: the burst of events`);
    const burst = await timedRun(service, '/v1/sandbox/settlement-runs', token, () => Promise.resolve('settling'));
    const expected = (await pendingEvents(lock, customerId)) * options.webhooks;
    progress(`delivering ${expected.toLocaleString('en')} signed deliveries to ${options.webhooks} webhook(s)`);
    // The backends of this database only: the server may be shared with other work.
    const database = await databaseCpuMeter(lock, new URL(url).pathname.slice(1));
    // What each statement costs a delivery, when the server has pg_stat_statements loaded.
    const statements = await statementStats(url, new URL(url).pathname.slice(1));
    await statements?.reset();
    const [service0, receiver0] = [service.cpuSeconds(), receiver.cpuSeconds()];
    const started = Date.now();
    await lock.query('COMMIT');
    const counts = await awaitDeliveries(receiver, expected, started);
    if (statements) {
      progress(`statements per delivery:\n${statementTable(await statements.read(counts.verified, 0.001))}`);
      await statements.end();
    }
    const perDelivery = (seconds: number) => (seconds * 1e6) / Math.max(1, counts.verified);
    const cpuPerDeliveryUs = { service: perDelivery(service.cpuSeconds() - service0), database: perDelivery(await database()) };
    const receiverCpuPerDeliveryUs = perDelivery(receiver.cpuSeconds() - receiver0);
    return { expected, counts, started, burstSeconds: burst.seconds, cpuPerDeliveryUs, receiverCpuPerDeliveryUs, secrets, webhookIds };
  } finally {
    await lock.end();
  }
}

/** The attempts the service recorded as SUCCESS, once none is left PENDING (the last answers are recorded after the receiver saw them). */
async function recordedSuccesses(knex: Knex, webhookIds: readonly number[]): Promise<number> {
  for (let waited = 0; ; waited += 100) {
    const rows = await knex('webhook_deliveries')
      .whereIn('webhook_id', webhookIds)
      .groupBy('status')
      .select<{ status: string; n: string }[]>('status', knex.raw('count(*) AS n'));
    const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
    if (count('PENDING') === 0 || waited >= 10_000) return count('SUCCESS');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Baseline (e): a plain HTTPS generator (autocannon) sending the bodies the service sent, signed the same way with
 * the same headers, each to its webhook's path, over as many keep-alive connections as the service may open.
 */
async function plainGenerator(knex: Knex, receiver: ReceiverProcess, run: { secrets: readonly string[]; webhookIds: readonly number[] }, seconds: number) {
  const { secrets } = run;
  const rows = await knex('webhook_deliveries')
    .where({ webhook_id: run.webhookIds[0], attempt: 1 })
    .select<{ event_id: string; payload: string }[]>('event_id', 'payload');
  const now = new Date();
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const requests = secrets.flatMap((secret, n) =>
    rows.map((row) => ({
      path: new URL(receiver.urlOf(n)).pathname,
      body: row.payload,
      headers: {
        'user-agent': 'rcs-webhooks/1.0',
        'webhook-id': row.event_id,
        'webhook-timestamp': timestamp,
        'webhook-signature': new Webhook(secret).sign(row.event_id, now, row.payload),
      },
    })),
  );
  await receiver.expect(secrets);
  let next = 0;
  progress(`baseline (e): plain HTTPS POSTs of the same ${requests.length.toLocaleString('en')} signed bodies, ${CONNECTIONS_PER_ENDPOINT} connections`);
  const receiver0 = receiver.cpuSeconds();
  const result = await withCpuCost(
    ownCpuSeconds,
    () =>
      httpLoad({
        url: receiver.urlOf(0),
        method: 'POST',
        ca: receiver.ca,
        connections: CONNECTIONS_PER_ENDPOINT,
        seconds,
        expectStatus: 204,
        perRequest: () => requests[next++ % requests.length],
      }),
    { database: false },
  );
  const counts = await receiver.counts();
  return {
    result,
    failed: counts.failed,
    connections: counts.connections,
    receiverCpuPerRequestUs: ((receiver.cpuSeconds() - receiver0) * 1e6) / Math.max(1, counts.verified),
  };
}

const us = (n: number) => Math.round(n).toLocaleString('en');

/**
 * The webhook fan-out row and its baseline (e): a settlement's burst of events dispatched from the outbox and
 * delivered, signed, by the service's own dispatcher and delivery worker (workers on, production settings but for
 * the sandbox's local receiver and the CA it is trusted through) to a receiver that verifies each one.
 */
export async function fanoutRows(url: string, options: FanoutOptions): Promise<Row[]> {
  const receiver = await startReceiver();
  let service: ServiceProcess | undefined;
  const knex = createDatabase({ url, poolSize: 2 });
  try {
    service = await startService({
      DATABASE_URL: url,
      HTTP_WORKERS: String(options.httpWorkers),
      WORKERS_ENABLED: 'true',
      WEBHOOK_CA_FILE: receiver.caFile,
      WEBHOOK_MAX_CONNECTIONS_PER_ENDPOINT: String(CONNECTIONS_PER_ENDPOINT),
    });
    const customer = await knex('customers').where({ name: 'Sandbox Customer 1' }).first<{ id: string }>('id');
    await seedReceivables(knex, Number(customer.id), Math.ceil(options.receivables / PER_ACCOUNT), PER_ACCOUNT, 'PAID', true);
    const run = await deliverBurst(url, service, receiver, options, customer.id);
    const recorded = await recordedSuccesses(knex, run.webhookIds);
    // Stopped before the baseline: its idle processes should not share the cores with the generator.
    await service.stop();
    service = undefined;
    const plain = await plainGenerator(knex, receiver, run, options.seconds);
    const seconds = (run.counts.lastVerifiedAt - run.started) / 1000;
    const throughput = run.counts.distinct / seconds;
    const missing = run.expected - run.counts.distinct;
    const baseline: Measurement = plain.result;
    return [
      {
        storage: '-',
        scenario: 'baseline (e) plain HTTPS POST, same signed bodies',
        result: { ...baseline, errors: baseline.errors + plain.failed },
        note: `autocannon, ${CONNECTIONS_PER_ENDPOINT} keep-alive connections (${plain.connections} opened); receiver CPU ${us(plain.receiverCpuPerRequestUs)} us/request`,
      },
      {
        storage: 'postgres',
        scenario: `webhook fan-out: ${(run.expected / options.webhooks).toLocaleString('en')} events x ${options.webhooks} webhooks`,
        result: { throughput, unit: 'deliveries/s', errors: missing + run.counts.failed, count: run.counts.distinct, cpuPerRequestUs: run.cpuPerDeliveryUs },
        baseline: '(e)',
        ratio: throughput / baseline.throughput,
        target: '>= 2,000 deliveries/s; >= 50% of (e)',
        met: throughput >= 2_000 && throughput >= 0.5 * baseline.throughput && missing === 0 && run.counts.failed === 0,
        note:
          `${run.counts.distinct.toLocaleString('en')} of ${run.expected.toLocaleString('en')} verified in ${seconds.toFixed(1)} s from the first dispatch ` +
          `(${run.counts.verified - run.counts.distinct} repeats, ${run.counts.failed} failed to verify, ${recorded.toLocaleString('en')} recorded SUCCESS), ` +
          `${run.counts.connections} TLS connections; receiver CPU ${us(run.receiverCpuPerDeliveryUs)} us/delivery; the burst (settlement run) took ${run.burstSeconds.toFixed(1)} s`,
      },
    ];
  } finally {
    await knex.destroy();
    await service?.stop();
    receiver.stop();
  }
}
