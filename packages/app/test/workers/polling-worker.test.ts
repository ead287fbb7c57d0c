import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';
import { PollingWorker } from '../../src/workers/polling-worker';

const INTERVAL_MS = 60_000;
/** Long enough for a few passes queued "at once" (each a 0 ms timer, which counts as 1 ms), far below the interval. */
const AT_ONCE_MS = 10;

describe('polling worker', () => {
  afterEach(() => jest.useRealTimers());

  it('runs passes outside the async context of whoever woke it', async () => {
    // Real timers: a fake one is fired from the test's own context, which would prove nothing about the worker's.
    const requestContext = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    let passed!: () => void;
    const nextPass = () => new Promise<void>((resolve) => (passed = resolve));
    const worker = new PollingWorker(
      'test',
      INTERVAL_MS,
      () => {
        seen.push(requestContext.getStore());
        passed();
        return Promise.resolve(false);
      },
      pino({ level: 'silent' }),
    );
    const first = nextPass();
    worker.start();
    await first;
    // Once the pass's promise chain has settled the worker is idle again, and a wake runs a pass.
    await new Promise(setImmediate);
    const second = nextPass();
    requestContext.run('request-42', () => worker.wake());
    await second;
    await worker.stop();
    expect(seen).toEqual([undefined, undefined]);
  });

  it('runs again at once while a pass says more work is waiting, and not after stop', async () => {
    jest.useFakeTimers();
    let passes = 0;
    const worker = new PollingWorker('test', INTERVAL_MS, () => Promise.resolve(++passes < 3), pino({ level: 'silent' }));
    worker.start();
    await jest.advanceTimersByTimeAsync(AT_ONCE_MS);
    expect(passes).toBe(3);
    await worker.stop();
    worker.wake();
    await jest.advanceTimersByTimeAsync(INTERVAL_MS * 2);
    expect(passes).toBe(3);
  });

  it('runs again at once when woken during a pass, instead of at the next tick', async () => {
    jest.useFakeTimers();
    let passes = 0;
    const worker: PollingWorker = new PollingWorker(
      'test',
      INTERVAL_MS,
      async () => {
        // The first pass is told of new work while it waits on the database (a delivery slot came free), after
        // it looked for work.
        if (++passes === 1) await Promise.resolve().then(() => worker.wake());
        return false;
      },
      pino({ level: 'silent' }),
    );
    worker.start();
    await jest.advanceTimersByTimeAsync(AT_ONCE_MS);
    expect(passes).toBe(2);
    await worker.stop();
  });
});
