import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';
import { PollingWorker } from '../../src/workers/polling-worker';

describe('polling worker', () => {
  it('runs passes outside the async context of whoever woke it', async () => {
    const requestContext = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const worker = new PollingWorker(
      'test',
      60_000,
      async () => {
        seen.push(requestContext.getStore());
        if (seen.length === 2) done();
        return false;
      },
      pino({ level: 'silent' }),
    );
    worker.start();
    await new Promise((resolve) => setTimeout(resolve, 20));
    requestContext.run('request-42', () => worker.wake());
    await finished;
    await worker.stop();
    expect(seen).toEqual([undefined, undefined]);
  });

  it('runs again at once while a pass says more work is waiting, and not after stop', async () => {
    let passes = 0;
    const worker = new PollingWorker('test', 60_000, async () => ++passes < 3, pino({ level: 'silent' }));
    worker.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await worker.stop();
    expect(passes).toBe(3);
    worker.wake();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(passes).toBe(3);
  });
});
