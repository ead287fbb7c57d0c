import type { LookupAddress } from 'node:dns';
import { lookup, Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';

/** Every address of a host name, of one family (4, 6) or both (0); rejects with the resolver's error when none. */
export type ResolveHost = (hostname: string, family: number) => Promise<LookupAddress[]>;

/** The system's resolver (getaddrinfo: /etc/hosts, then DNS), as `dns.lookup` asks it. */
export const systemResolver: ResolveHost = (hostname, family) => lookup(hostname, { all: true, family });

/** RFC 6761: these names are loopback, whatever a nameserver would say. */
const LOOPBACK_NAME = /^(?:[^.]+\.)*localhost\.?$/i;
const LOOPBACK: readonly LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/** How long IPv6's answer is waited for once IPv4 has addresses (RFC 8305's resolution delay); IPv4's always is. */
const IPV6_GRACE_MS = 50;

/** Answers, not failures to get one: a failure says more of why a host did not resolve. */
const ANSWERS = ['ENODATA', 'ENOTFOUND'];

export interface NetworkResolverOptions {
  /** Per query to a nameserver, each asked once (c-ares doubles the timeout on each further try). */
  readonly timeoutMs: number;
  /** The whole lookup, both families and every nameserver: past it, the queries are cancelled. */
  readonly deadlineMs: number;
  /** Nameservers other than the system's (resolv.conf): tests. */
  readonly servers?: readonly string[];
}

/**
 * DNS through c-ares, which waits for nameservers on the event loop, with a deadline: `dns.lookup` runs getaddrinfo
 * on libuv's four threads, which a name whose nameserver never answers holds for the system's whole timeout each,
 * so a few such webhooks stalled every other webhook's lookups and every password hash of the process (scrypt
 * shares those threads). Names only, as production webhooks are: /etc/hosts is not read, and both families are
 * asked, IPv4 first, whatever interfaces the machine has (getaddrinfo's ADDRCONFIG is not applied: an IPv6-only
 * host on a machine without IPv6 fails at connection, not lookup). A channel per lookup: its deadline cancels its
 * own queries alone, and it reads resolv.conf as it is then.
 */
export function networkResolver(options: NetworkResolverOptions = { timeoutMs: 2_000, deadlineMs: 5_000 }): ResolveHost {
  return async (hostname, family) => {
    const literal = isIP(hostname);
    if (literal !== 0) return [{ address: hostname, family: literal }];
    if (LOOPBACK_NAME.test(hostname)) return LOOPBACK.filter((a) => family === 0 || a.family === family);
    const resolver = new Resolver({ timeout: options.timeoutMs, tries: 1 });
    if (options.servers) resolver.setServers([...options.servers]);
    let late = false;
    const deadline = setTimeout(() => {
      late = true;
      resolver.cancel();
    }, options.deadlineMs);
    try {
      const queries = [
        ...(family === 6 ? [] : [resolver.resolve4(hostname).then((found) => found.map((address) => ({ address, family: 4 })))]),
        ...(family === 4 ? [] : [resolver.resolve6(hostname).then((found) => found.map((address) => ({ address, family: 6 })))]),
      ];
      const { addresses, errors } = await settledWithGrace(queries);
      if (addresses.length > 0) return addresses;
      if (late) throw Object.assign(new Error(`${hostname} did not resolve within ${options.deadlineMs / 1000} s`), { code: 'ETIMEOUT' });
      throw errors.find((error) => !ANSWERS.includes((error as { code?: string }).code ?? '')) ?? errors[0];
    } finally {
      clearTimeout(deadline);
      // A family still unanswered after the grace is given up.
      resolver.cancel();
    }
  };
}

/**
 * The addresses the queries found, and their errors: every query settled, or, asked for both, IPv6's given up
 * IPV6_GRACE_MS after IPv4 (the first) found some. IPv4's is never given up for IPv6's: on a machine without IPv6
 * (many containers), an answer of IPv6 addresses alone is a webhook that cannot be reached.
 */
function settledWithGrace(queries: ReadonlyArray<Promise<LookupAddress[]>>): Promise<{ addresses: LookupAddress[]; errors: unknown[] }> {
  const found: LookupAddress[][] = queries.map(() => []);
  const errors: unknown[] = [];
  return new Promise((resolve) => {
    let pending = queries.length;
    let grace: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(grace);
      resolve({ addresses: found.flat(), errors });
    };
    for (const [n, query] of queries.entries()) {
      void query
        .then(
          (addresses) => {
            found[n] = addresses;
            if (n === 0 && queries.length > 1 && addresses.length > 0) grace = setTimeout(done, IPV6_GRACE_MS);
          },
          (error: unknown) => errors.push(error),
        )
        .finally(() => {
          if (--pending === 0) done();
        });
    }
  });
}
