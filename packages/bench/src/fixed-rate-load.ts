import http from 'node:http';
import { runningProgress, summarise, type Measurement } from './stats';

export interface FixedRateOptions {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  /** Called per request: fresh headers (an Idempotency-Key) and body. */
  readonly perRequest: () => { headers?: Record<string, string>; body?: string };
  /** Requests sent per second, evenly spaced, whatever the answers. */
  readonly rate: number;
  readonly seconds: number;
  /** Sockets kept alive to the target: requests beyond them wait in the agent, and that wait counts as latency. */
  readonly connections: number;
  readonly expectStatus: number;
}

/** A request that has not answered in this time is counted as an error. */
const TIMEOUT_MS = 30_000;
/** How often the driver wakes to send what is due: well under the interval between requests at a few hundred per second. */
const TICK_MS = 1;

/**
 * An open-loop load: request i is due at i / rate seconds and is sent then, without waiting for any answer, and its
 * latency runs from when it was due, so a late answer (or a driver running behind) is never hidden. autocannon's
 * `overallRate` does not do this: each connection sends its share of a second back to back as soon as the second
 * starts, then pauses, which is saturation in bursts.
 */
export async function fixedRateLoad(options: FixedRateOptions): Promise<Measurement> {
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  let failures = 0;
  const send = (due: number) =>
    new Promise<void>((resolve) => {
      const next = options.perRequest();
      const body = next.body ?? '';
      const request = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: options.method,
          agent,
          timeout: TIMEOUT_MS,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...options.headers, ...next.headers },
        },
        (response) => {
          response.resume();
          response.once('end', () => {
            if (response.statusCode === options.expectStatus) latencies.push(performance.now() - due);
            else failures++;
            resolve();
          });
        },
      );
      request.once('timeout', () => request.destroy(new Error('timed out')));
      request.once('error', () => {
        failures++;
        resolve();
      });
      request.end(body);
    });

  const total = Math.round(options.rate * options.seconds);
  const answers: Array<Promise<void>> = [];
  const running = runningProgress();
  const started = performance.now();
  let second = 0;
  while (answers.length < total) {
    const elapsed = (performance.now() - started) / 1000;
    const due = Math.min(total, Math.floor(elapsed * options.rate) + 1);
    while (answers.length < due) answers.push(send(started + (answers.length * 1000) / options.rate));
    // Once a second, as the other loads report.
    if (Math.floor(elapsed) > second) {
      second = Math.floor(elapsed);
      running.update(second, `${second} / ${options.seconds} s: ${latencies.length.toLocaleString('en')} answered as expected, ${failures} otherwise`);
    }
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  await Promise.all(answers);
  running.done();
  agent.destroy();
  return summarise(latencies, options.seconds, failures);
}
