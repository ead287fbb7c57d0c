import type { Request, RequestHandler, Response } from 'express';
import { DomainError } from '@rcs/domain';

const WINDOW_MS = 60_000;

interface Counter {
  windowStart: number;
  current: number;
  previous: number;
}

/** What a key has left after a hit. */
export interface Allowance {
  readonly allowed: boolean;
  readonly limit: number;
  /** Requests the key may still make now. */
  readonly remaining: number;
  /** Seconds until the current minute ends: a refused key's wait. */
  readonly resetSeconds: number;
}

/** Keys held at most: a flood of new keys (logins under random client ids) must not grow memory without end. */
export const MAX_LIMITED_KEYS = 100_000;

/**
 * Sliding-window counter per key, kept in this process: the previous minute's count weighs in proportion to how
 * much of it the sliding window still covers. With several instances each enforces its own share.
 */
export class SlidingWindowLimiter {
  private readonly counters = new Map<string, Counter>();
  private sweptWindow = 0;

  constructor(
    private readonly limitPerMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** How many keys it tracks now. */
  get size(): number {
    return this.counters.size;
  }

  /** Counts a hit unless the key has spent its allowance. */
  hit(key: string): Allowance {
    const now = this.now();
    const windowStart = now - (now % WINDOW_MS);
    const known = this.counters.get(key);
    if (!known && this.counters.size >= MAX_LIMITED_KEYS) this.makeRoom(windowStart);
    const counter = this.roll(known, windowStart);
    // Re-inserted, so the map's order runs from the key hit longest ago to the latest.
    this.counters.delete(key);
    this.counters.set(key, counter);
    const overlap = 1 - (now - windowStart) / WINDOW_MS;
    const estimate = counter.previous * overlap + counter.current;
    const allowed = estimate < this.limitPerMinute;
    if (allowed) counter.current++;
    return {
      allowed,
      limit: this.limitPerMinute,
      remaining: allowed ? Math.max(0, Math.floor(this.limitPerMinute - estimate - 1)) : 0,
      resetSeconds: Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000)),
    };
  }

  private roll(counter: Counter | undefined, windowStart: number): Counter {
    if (!counter || counter.windowStart < windowStart - WINDOW_MS) return { windowStart, current: 0, previous: 0 };
    if (counter.windowStart < windowStart) return { windowStart, current: 0, previous: counter.current };
    return counter;
  }

  /**
   * Forgets keys idle for two windows (a full pass at most once a window, so a flood does not pay one per
   * request), then, if the flood is younger than that, the keys hit longest ago: their counts restart.
   */
  private makeRoom(windowStart: number): void {
    if (this.sweptWindow < windowStart) {
      this.sweptWindow = windowStart;
      for (const [key, counter] of this.counters) if (counter.windowStart < windowStart - WINDOW_MS) this.counters.delete(key);
    }
    for (const key of this.counters.keys()) {
      if (this.counters.size < MAX_LIMITED_KEYS) break;
      this.counters.delete(key);
    }
  }
}

/** A limiter and what it counts a request under (the credential, the source address, ...). */
export interface RateLimitRule {
  readonly limiter: SlidingWindowLimiter;
  readonly keyOf: (req: Request) => string;
}

/**
 * Counts the request under each rule in turn; the first spent one stops it: 429 rate-limit-exceeded with
 * Retry-After. The answer tells the allowance closest to running out in the RateLimit-Limit, RateLimit-Remaining
 * and RateLimit-Reset headers of draft-ietf-httpapi-ratelimit-headers-06, so clients can pace themselves.
 */
export function countRequest(req: Request, res: Response, rules: readonly RateLimitRule[]): void {
  for (const { limiter, keyOf } of rules) {
    const allowance = limiter.hit(keyOf(req));
    show(res, allowance);
    if (!allowance.allowed) {
      res.setHeader('Retry-After', String(allowance.resetSeconds));
      throw new DomainError('rate-limit-exceeded', `too many requests; retry after ${allowance.resetSeconds} s`);
    }
  }
}

/** A request can meet several limits (login: its source's, then its clientId's there); a spent one always shows. */
function show(res: Response, allowance: Allowance): void {
  const shown = res.getHeader('RateLimit-Remaining');
  if (allowance.allowed && shown !== undefined && Number(shown) <= allowance.remaining) return;
  res.setHeader('RateLimit-Limit', String(allowance.limit));
  res.setHeader('RateLimit-Remaining', String(allowance.remaining));
  res.setHeader('RateLimit-Reset', String(allowance.resetSeconds));
}

/** Middleware form of countRequest. */
export function rateLimit(...rules: RateLimitRule[]): RequestHandler {
  return (req, res, next) => {
    countRequest(req, res, rules);
    next();
  };
}
