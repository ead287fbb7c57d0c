import type { Request } from 'express';
import { authOf } from '../auth/authenticate';
import type { LoginBody } from '../dto/login-dto';
import { SlidingWindowLimiter, type RateLimitRule } from './rate-limit';

/** Requests per minute (sliding window, per instance) allowed to each key. */
export interface RateLimits {
  /** Requests of one credential. */
  readonly perCredential: number;
  /** Logins and requests without a valid token from one source address. */
  readonly perSource: number;
  /** Logins to one clientId from one source address. */
  readonly loginPerSource: number;
}

/** What requests are counted under; the source address is Express's req.ip (see its `trust proxy` setting). */
export interface RateLimitRules {
  readonly byCredential: RateLimitRule;
  /** Requests without a valid token are paced by where they come from: an anonymous caller cannot keep a core busy. */
  readonly bySource: RateLimitRule;
  /** A stranger's wrong secrets spend the stranger's allowance for that clientId, not its owner's. */
  readonly byClientAtSource: RateLimitRule;
}

export function rateLimitRules(limits: RateLimits): RateLimitRules {
  return {
    byCredential: { limiter: new SlidingWindowLimiter(limits.perCredential), keyOf: (req: Request) => `credential:${authOf(req).sub}` },
    bySource: { limiter: new SlidingWindowLimiter(limits.perSource), keyOf: (req: Request) => `source:${req.ip}` },
    // An address never holds a space, so the key names one (address, clientId) pair.
    byClientAtSource: {
      limiter: new SlidingWindowLimiter(limits.loginPerSource),
      keyOf: (req: Request) => `login:${req.ip} ${(req.body as LoginBody).clientId}`,
    },
  };
}
