import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { httpRequestMetrics, type MetricsExposition } from '@rcs/adapters-http';

const ASK = 'rcs:metrics-request';
const ANSWER = 'rcs:metrics-answer';
/**
 * A primary that has not answered by then is not going to: the scrape fails rather than hangs. Past prom-client's
 * own 5 s wait for the workers, so a worker that did not answer is reported as the primary's error.
 */
const ASK_TIMEOUT_MS = 7_000;

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

/** Scrapes of this worker waiting for the primary's answer, by request id: one message listener serves them all. */
const pending = new Map<string, (answer: Answered) => void>();

function askPrimary(): Promise<string> {
  if (pending.size === 0) process.on('message', answered);
  const id = randomUUID();
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => settle({ type: ANSWER, id, error: 'no answer in time' }), ASK_TIMEOUT_MS);
    const settle = (answer: Answered) => {
      clearTimeout(timer);
      pending.delete(id);
      if (pending.size === 0) process.off('message', answered);
      if (answer.text === undefined) reject(new Error(`the primary could not gather the metrics: ${answer.error}`));
      else resolve(answer.text);
    };
    pending.set(id, settle);
    process.send!({ type: ASK, id } satisfies Asked);
  });
}

function answered(message: Answered): void {
  if (message?.type === ANSWER) pending.get(message.id)?.(message);
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
