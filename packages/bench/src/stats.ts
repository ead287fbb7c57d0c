/** What one measured run produced; latencies in milliseconds. */
export interface Measurement {
  readonly throughput: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly errors: number;
  readonly count: number;
  /** CPU time per answered request, in microseconds: the service's, and PostgreSQL's when it runs on this machine. */
  readonly cpuPerRequestUs?: { readonly service: number; readonly database?: number };
}

/** Exact percentiles of recorded latencies (nearest rank). */
export function summarise(latencies: number[], seconds: number, errors: number): Measurement {
  const sorted = Float64Array.from(latencies).sort();
  const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : 0);
  return { throughput: latencies.length / seconds, p50: at(0.5), p95: at(0.95), p99: at(0.99), errors, count: latencies.length };
}

export const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`);
