import type { Request } from 'express';
import { sourceOf } from '../src/middleware/rate-limit-rules';
import { MAX_LIMITED_KEYS, SlidingWindowLimiter, type Allowance } from '../src/middleware/rate-limit';

/** 0 when allowed, else the seconds to wait. */
const wait = (allowance: Allowance) => (allowance.allowed ? 0 : allowance.resetSeconds);

describe('sliding-window rate limiter', () => {
  it('allows the limit in a minute, then says how long to wait, and weighs the previous minute as it slides away', () => {
    let now = 60_000 * 1_000;
    const limiter = new SlidingWindowLimiter(3, () => now);
    expect([wait(limiter.hit('k')), wait(limiter.hit('k')), wait(limiter.hit('k'))]).toEqual([0, 0, 0]);
    now += 15_000;
    expect(wait(limiter.hit('k'))).toBe(45);
    expect(wait(limiter.hit('other'))).toBe(0);
    // A quarter into the next minute, three-quarters of the previous three still count: 2.25, one more fits.
    now += 60_000;
    expect([wait(limiter.hit('k')), wait(limiter.hit('k'))]).toEqual([0, 45]);
  });

  it('reports what a key has left, the previous minute weighing in as it slides away', () => {
    let now = 60_000 * 1_000;
    const limiter = new SlidingWindowLimiter(4, () => now);
    expect([1, 2, 3, 4].map(() => limiter.hit('k').remaining)).toEqual([3, 2, 1, 0]);
    // A quarter into the next minute three of the previous four still count: one more fits, then none.
    now += 75_000;
    expect(limiter.hit('k')).toEqual({ allowed: true, limit: 4, remaining: 0, resetSeconds: 45 });
  });

  it('keeps its memory bounded under a flood of new keys, and still limits a key hit during the flood', () => {
    let now = 60_000 * 1_000;
    const limiter = new SlidingWindowLimiter(2, () => now);
    expect([wait(limiter.hit('steady')), wait(limiter.hit('steady'))]).toEqual([0, 0]);
    for (let i = 0; i < MAX_LIMITED_KEYS + 500; i++) {
      limiter.hit(`flood-${i}`);
      if (i % 1_000 === 0) expect(wait(limiter.hit('steady'))).toBeGreaterThan(0);
    }
    expect(limiter.size).toBeLessThanOrEqual(MAX_LIMITED_KEYS);
    now += 3 * 60_000;
    limiter.hit('late');
    expect(limiter.size).toBeLessThanOrEqual(2);
  });
});

describe('the source a per-source limit counts', () => {
  const source = (ip: string) => sourceOf({ ip } as Request);

  it('counts every address of one IPv6 /64 as one source, however it is written', () => {
    expect(source('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(source('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(source('2001:0db8:0001:0002:0:0:0:ffff')).toBe('2001:db8:1:2::/64');
    expect(source('2001:db8:1:3::1')).not.toBe(source('2001:db8:1:2::1'));
  });

  it('counts IPv4 addresses, plain or mapped into IPv6, one by one', () => {
    expect(source('203.0.113.7')).toBe('203.0.113.7');
    expect(source('::ffff:203.0.113.7')).toBe('::ffff:203.0.113.7');
    expect(source('203.0.113.8')).not.toBe(source('203.0.113.7'));
  });
});
