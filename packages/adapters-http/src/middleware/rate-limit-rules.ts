import type { Request } from 'express';
import { isIPv6 } from 'node:net';
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

/** What requests are counted under; the source is Express's req.ip (see its `trust proxy` setting), by sourceOf. */
export interface RateLimitRules {
  readonly byCredential: RateLimitRule;
  /** Requests without a valid token are paced by where they come from: an anonymous caller cannot keep a core busy. */
  readonly bySource: RateLimitRule;
  /** A stranger's wrong secrets spend the stranger's allowance for that clientId, not its owner's. */
  readonly byClientAtSource: RateLimitRule;
}

/**
 * Where a request comes from, as limits count it: an IPv4 address, or the /64 network of an IPv6 one (one host
 * is usually given a whole /64, so counting single addresses would let it rotate through them).
 */
export function sourceOf(req: Request): string {
  const address = req.ip ?? 'unknown';
  if (!isIPv6(address) || address.startsWith('::ffff:')) return address;
  const [head, tail = ''] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

export function rateLimitRules(limits: RateLimits): RateLimitRules {
  return {
    byCredential: { limiter: new SlidingWindowLimiter(limits.perCredential), keyOf: (req: Request) => `credential:${authOf(req).sub}` },
    bySource: { limiter: new SlidingWindowLimiter(limits.perSource), keyOf: (req: Request) => `source:${sourceOf(req)}` },
    // An address never holds a space, so the key names one (address, clientId) pair.
    byClientAtSource: {
      limiter: new SlidingWindowLimiter(limits.loginPerSource),
      keyOf: (req: Request) => `login:${sourceOf(req)} ${(req.body as LoginBody).clientId}`,
    },
  };
}
