import type { EventEmitter } from 'node:events';
import autocannon from 'autocannon';
import { runningProgress, summarise, type Measurement } from './stats';

export interface LoadOptions {
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Called per request: fresh headers (an Idempotency-Key), another body or path. */
  readonly perRequest?: () => { headers?: Record<string, string>; body?: string; path?: string };
  readonly connections: number;
  readonly seconds: number;
  /** Status a request must answer to count as a success. */
  readonly expectStatus: number;
  /** For an https url: the CA its certificate is trusted through. */
  readonly ca?: string;
}

/** Drives HTTP load with autocannon (this process; the target runs in another) and records every latency. */
export async function httpLoad(options: LoadOptions): Promise<Measurement> {
  const latencies: number[] = [];
  let failures = 0;
  // Without a callback autocannon returns its running instance, which is both a promise and an event emitter.
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    ...(options.ca ? { tlsOptions: { ca: options.ca } } : {}),
    requests: [
      {
        method: options.method ?? 'GET',
        headers: { 'content-type': 'application/json', ...options.headers },
        body: options.body,
        ...(options.perRequest
          ? {
              setupRequest: (req: autocannon.Request) => {
                const next = options.perRequest!();
                return {
                  ...req,
                  ...(next.body ? { body: next.body } : {}),
                  ...(next.path ? { path: next.path } : {}),
                  headers: { ...req.headers, ...next.headers },
                };
              },
            }
          : {}),
      },
    ],
  }) as unknown as Promise<autocannon.Result> & EventEmitter;
  // Its events, as an emitter: listening returns the emitter, which is the run itself, not a promise to await there.
  const events: EventEmitter = instance;
  events.on('response', (_client: unknown, status: number, _bytes: number, responseTime: number) => {
    if (status === options.expectStatus) latencies.push(responseTime);
    else failures++;
  });
  const running = runningProgress();
  let second = 0;
  events.on('tick', () => {
    second++;
    running.update(second, `${second} / ${options.seconds} s: ${latencies.length.toLocaleString('en')} answered as expected, ${failures} otherwise`);
  });
  const result = await instance;
  running.done();
  return summarise(latencies, options.seconds, failures + result.errors + result.timeouts);
}
