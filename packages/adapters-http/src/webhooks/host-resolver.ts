import { lookup, Resolver } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
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

export interface NetworkResolverOptions {
  /** Per query to a nameserver. */
  readonly timeoutMs: number;
  /** Queries per nameserver before giving up. */
  readonly tries: number;
  /** Nameservers other than the system's (resolv.conf): tests. */
  readonly servers?: readonly string[];
}

/**
 * DNS through c-ares, which waits for nameservers on the event loop, with a deadline per query: `dns.lookup` runs
 * getaddrinfo on libuv's four threads, which a name whose nameserver never answers holds for the system's whole
 * timeout each, so a few such webhooks stalled every other webhook's lookups and every password hash of the
 * process (scrypt shares those threads). Names only, as production webhooks are: /etc/hosts is not read.
 */
export function networkResolver(options: NetworkResolverOptions = { timeoutMs: 2_000, tries: 2 }): ResolveHost {
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: options.tries });
  if (options.servers) resolver.setServers([...options.servers]);
  return async (hostname, family) => {
    const literal = isIP(hostname);
    if (literal !== 0) return [{ address: hostname, family: literal }];
    if (LOOPBACK_NAME.test(hostname)) return LOOPBACK.filter((a) => family === 0 || a.family === family);
    const [v4, v6] = await Promise.allSettled([family === 6 ? [] : resolver.resolve4(hostname), family === 4 ? [] : resolver.resolve6(hostname)]);
    const addresses = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (addresses.length > 0) return addresses;
    throw (
      [v4, v6].find((r): r is PromiseRejectedResult => r.status === 'rejected')?.reason ??
      Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' })
    );
  };
}
