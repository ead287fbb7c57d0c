import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { httpRequestMetrics, type MetricsExposition } from '@rcs/adapters-http';

const ASK = 'rcs:metrics-request';
const ANSWER = 'rcs:metrics-answer';
/** A primary that has not answered by then is not going to: the scrape fails rather than hangs. */
const ASK_TIMEOUT_MS = 5_000;

interface Asked {
  readonly type: typeof ASK;
  readonly id: string;
}
interface Answered {
  readonly type: typeof ANSWER;
  readonly id: string;
  readonly text?: string;
  readonly error?: string;
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
 * every worker's metrics, summed by the primary (`servePrimary`), as one service.
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
  readonly contentType = this.registry.contentType;

  private readonly registries = [processMetrics(), this.registry];

  constructor(private readonly shared: boolean) {
    this.recordRequest = httpRequestMetrics(this.registry);
    if (shared) {
      // The primary's aggregation asks every worker for these registries; constructing an aggregator is what makes
      // prom-client answer those requests in this worker.
      AggregatorRegistry.setRegistries(this.registries);
      new AggregatorRegistry();
    }
  }

  jobRan(job: string, outcome: 'ok' | 'failed'): void {
    this.jobRuns.inc({ job, outcome });
    if (outcome === 'ok') this.jobSucceeded.set({ job }, Date.now() / 1000);
  }

  text(): Promise<string> {
    return this.shared ? askPrimary() : Registry.merge(this.registries).metrics();
  }
}

function askPrimary(): Promise<string> {
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off('message', onAnswer);
      reject(new Error('the primary process did not answer for the metrics'));
    }, ASK_TIMEOUT_MS);
    const onAnswer = (message: Answered) => {
      if (message?.type !== ANSWER || message.id !== id) return;
      clearTimeout(timer);
      process.off('message', onAnswer);
      if (message.text === undefined) reject(new Error(`the primary could not gather the metrics: ${message.error}`));
      else resolve(message.text);
    };
    process.on('message', onAnswer);
    process.send!({ type: ASK, id } satisfies Asked);
  });
}

/** In the primary of HTTP_WORKERS: answers a worker's request for the metrics with every worker's, summed. */
export function servePrimaryMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: Asked) => {
    if (message?.type !== ASK) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id: message.id, text } satisfies Answered),
      (error: unknown) => worker.send({ type: ANSWER, id: message.id, error: String(error) } satisfies Answered),
    );
  });
}
