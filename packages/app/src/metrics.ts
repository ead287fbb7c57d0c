import cluster, { type Worker } from 'node:cluster';
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Registry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { httpRequestMetrics, type MetricsExposition } from '@rcs/adapters-http';

const ASK = 'rcs:metrics-request';
const ANSWER = 'rcs:metrics-answer';
const COLLECT = 'rcs:metrics-collect';
const COLLECTED = 'rcs:metrics-collected';
const READY = 'rcs:metrics-ready';
/** How long the primary waits for each worker's metrics, and a worker for the primary's sum (a little longer). */
const COLLECT_TIMEOUT_MS = 5_000;
const ASK_TIMEOUT_MS = 7_000;

interface Asked {
  readonly type: typeof ASK | typeof COLLECT | typeof READY;
  readonly id: string;
}
interface Answered {
  readonly type: typeof ANSWER;
  readonly id: string;
  readonly text?: string;
  readonly error?: string;
}
interface Collected {
  readonly type: typeof COLLECTED;
  readonly id: string;
  readonly metrics: MetricObjectWithValues<MetricValue<string>>[];
}

let processRegistry: Registry | undefined;

/** The process's own metrics, collected once however many applications the process builds (tests build many). */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The service's metrics: the process's own (CPU, memory, event loop, garbage collection), every HTTP request's,
 * and the scheduled jobs' runs. One per process. Under HTTP_WORKERS a scrape reaching any worker is answered with
 * every worker's metrics, summed by the primary (`servePrimaryMetrics`), as one service.
 */
export class ServiceMetrics implements MetricsExposition {
  readonly registry = new Registry();
  readonly recordRequest: RequestHandler;
  private readonly jobRuns = new Counter({
    name: 'rcs_job_runs_total',
    help: 'Scheduled job runs (settlement, transfers, expiration, purges), by job and outcome (ok or failed)',
    labelNames: ['job', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly jobSucceeded = new Gauge({
    name: 'rcs_job_last_success_timestamp_seconds',
    help: 'When each scheduled job last ran to completion (Unix time); alert when a job has not for too long',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });
  private readonly aliasReconciliations = new Counter({
    name: 'rcs_alias_reconciliations_total',
    help: 'Accounts the alias-reconcile job settled, by outcome: restored, replaced (another account held the alias at the provider), taken (and no other registered yet) or failed; alert on replaced and taken',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly contentType = this.registry.contentType;

  private readonly registries = [processMetrics(), this.registry];

  constructor(private readonly shared: boolean) {
    this.recordRequest = httpRequestMetrics(this.registry);
    // The primary sums what every listening worker sends it when asked (servePrimaryMetrics).
    if (shared) {
      process.on('message', (message: Asked) => {
        if (message?.type !== COLLECT) return;
        void Promise.all(this.registries.map((registry) => registry.getMetricsAsJSON())).then((metrics) =>
          process.send!({ type: COLLECTED, id: message.id, metrics: metrics.flat() } satisfies Collected),
        );
      });
      process.send!({ type: READY, id: '' } satisfies Asked);
    }
  }

  jobRan(job: string, outcome: 'ok' | 'failed'): void {
    this.jobRuns.inc({ job, outcome });
    if (outcome === 'ok') this.jobSucceeded.set({ job }, Date.now() / 1000);
  }

  aliasesReconciled(outcome: 'restored' | 'replaced' | 'taken' | 'failed', accounts: number): void {
    if (accounts > 0) this.aliasReconciliations.inc({ outcome }, accounts);
  }

  text(): Promise<string> {
    return this.shared ? askPrimary() : Registry.merge(this.registries).metrics();
  }
}

/** Replies to messages sent under an id, each awaited until it arrives or its time is up. */
class Replies<T> {
  private readonly waiting = new Map<string, (reply: T) => void>();

  get size(): number {
    return this.waiting.size;
  }

  awaiting(id: string, ms: number, late: () => Error): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(late());
      }, ms);
      this.waiting.set(id, (reply) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(reply);
      });
    });
  }

  deliver(id: string, reply: T): void {
    this.waiting.get(id)?.(reply);
  }
}

/** This worker's scrapes waiting for the primary's sum: one message listener serves them all, while any wait. */
const answers = new Replies<Answered>();

async function askPrimary(): Promise<string> {
  if (answers.size === 0) process.on('message', answered);
  const id = randomUUID();
  const reply = answers.awaiting(id, ASK_TIMEOUT_MS, () => new Error('the primary did not answer with the metrics in time'));
  process.send!({ type: ASK, id } satisfies Asked);
  try {
    const answer = await reply;
    if (answer.text === undefined) throw new Error(`the primary could not gather the metrics: ${answer.error}`);
    return answer.text;
  } finally {
    if (answers.size === 0) process.off('message', answered);
  }
}

function answered(message: Answered): void {
  if (message?.type === ANSWER) answers.deliver(message.id, message);
}

/**
 * In the primary of HTTP_WORKERS: answers a worker's request for the metrics with the sum of every worker's that
 * said it keeps them (one still starting has none to give yet, and would hold the scrape up).
 */
export function servePrimaryMetrics(): void {
  const ready = new Set<Worker>();
  cluster.on('exit', (worker) => ready.delete(worker));
  const collected = new Replies<Collected['metrics']>();
  const collect = (worker: Worker) => {
    const id = randomUUID();
    const reply = collected.awaiting(id, COLLECT_TIMEOUT_MS, () => new Error(`worker ${worker.id} sent no metrics in time`));
    worker.send({ type: COLLECT, id } satisfies Asked);
    return reply;
  };
  cluster.on('message', (worker, message: Asked | Collected) => {
    if (message?.type === READY) ready.add(worker);
    if (message?.type === COLLECTED) collected.deliver(message.id, message.metrics);
    if (message?.type !== ASK) return;
    Promise.all([...ready].map(collect))
      .then((perWorker) => AggregatorRegistry.aggregate(perWorker).metrics())
      .then(
        (text) => worker.send({ type: ANSWER, id: message.id, text } satisfies Answered),
        (error: unknown) => worker.send({ type: ANSWER, id: message.id, error: String(error) } satisfies Answered),
      );
  });
}
