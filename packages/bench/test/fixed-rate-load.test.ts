import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixedRateLoad } from '../src/fixed-rate-load';

/** A server that answers 201 after `delayMs`, recording when each request arrived. */
async function slowServer(delayMs: number) {
  const arrivals: number[] = [];
  const server = http.createServer((request, response) => {
    arrivals.push(performance.now());
    request.resume();
    setTimeout(() => response.writeHead(201).end(), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/receivables`, arrivals, close: () => new Promise((resolve) => server.close(resolve)) };
}

const load = (url: string, connections: number) =>
  fixedRateLoad({ url, method: 'POST', headers: {}, perRequest: () => ({ body: '{}' }), rate: 50, seconds: 1, connections, expectStatus: 201 });

describe('the fixed-rate load', () => {
  it('sends at its rate without waiting for answers: 50 requests evenly over a second, each answer taking 300 ms', async () => {
    const server = await slowServer(300);
    try {
      const result = await load(server.url, 64);
      expect(result.count).toBe(50);
      expect(result.errors).toBe(0);
      // A driver waiting for answers would have sent a handful by half a second, one not pacing all 50; this one sent
      // about half. Counted from the first arrival: when a busy machine holds that one back, those due meanwhile
      // follow it at once (they were due), so a few more than half may fall within its half second.
      const first = server.arrivals[0];
      const byHalfSecond = server.arrivals.filter((t) => t - first < 500).length;
      expect(byHalfSecond).toBeGreaterThanOrEqual(20);
      expect(byHalfSecond).toBeLessThanOrEqual(36);
      expect(result.p50).toBeGreaterThanOrEqual(299);
      expect(result.p99).toBeLessThan(600);
    } finally {
      await server.close();
    }
  });

  it('counts latency from when a request was due, so a request held back by a busy target is not hidden', async () => {
    const server = await slowServer(50);
    try {
      // One socket, answers in 50 ms, one due every 20 ms: the requests queue, the last ones 1.5 s behind.
      const result = await load(server.url, 1);
      expect(result.count).toBe(50);
      expect(result.p50).toBeGreaterThan(500);
      expect(result.p99).toBeGreaterThan(1_000);
    } finally {
      await server.close();
    }
  });
});
