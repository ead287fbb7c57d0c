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

/** Seconds between progress lines of a run in flight: in place on a terminal; a CI log keeps every line, so fewer. */
const PROGRESS_EVERY = { terminal: 1, log: 5 };

/** A progress line for a run in flight, overwritten in place on a terminal, one line each time otherwise. */
export function runningProgress(): { update(elapsedSeconds: number, message: string): void; done(): void } {
  const terminal = process.stderr.isTTY === true;
  const every = terminal ? PROGRESS_EVERY.terminal : PROGRESS_EVERY.log;
  let shown = false;
  let finished = false;
  return {
    update(elapsedSeconds, message) {
      // A late report (a count that answers after the run ended) would leave a stray line.
      if (finished || Math.round(elapsedSeconds) % every !== 0) return;
      shown = true;
      process.stderr.write(terminal ? `\r\x1b[K[bench]   ${message}` : `[bench]   ${message}\n`);
    },
    done() {
      finished = true;
      if (terminal && shown) process.stderr.write('\n');
    },
  };
}
