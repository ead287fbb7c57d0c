import { BlockList, isIP, type LookupFunction } from 'node:net';
import { ValidationError, type WebhookUrlPolicy } from '@rcs/domain';
import { networkResolver, systemResolver, type ResolveHost } from './host-resolver';

/**
 * IPv4 ranges a webhook must not reach in production (SSRF): this network, private, shared, loopback, link-local,
 * IETF protocol, documentation, 6to4 relay, benchmarking, multicast and reserved (IANA's special-purpose registry).
 */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
/**
 * IPv6 is reached only in global unicast (2000::/3), less its special-purpose blocks: Teredo and the rest of
 * 2001::/23, documentation, and 6to4 (2002::/16), whose embedded IPv4 could be any internal address. Everything
 * outside it (loopback, unique-local, link- and site-local, multicast, NAT64 prefixes, IPv4-compatible and
 * -translated forms) is refused, save IPv4-mapped addresses, which node judges by the IPv4 ranges above.
 */
for (const [network, prefix] of [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');
const IPV4_MAPPED = new BlockList();
IPV4_MAPPED.addSubnet('::ffff:0:0', 96, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Whether `list` holds `address`; an IPv4-mapped IPv6 address is judged as its IPv4 address (node's BlockList does so). */
function inList(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Whether `address` is one a production webhook may connect to. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0 || inList(INTERNAL, address)) return false;
  return family === 4 || IPV4_MAPPED.check(address, 'ipv6') || GLOBAL_UNICAST.check(address, 'ipv6');
}

/**
 * What webhooks may reach: public addresses, and in the sandbox loopback too (a receiver on the same machine,
 * CONTRACT), never the private, link-local or reserved rest (a sandbox's metadata address, its neighbours).
 */
export type Reach = 'public' | 'public-and-loopback';
const reachable = (address: string, reach: Reach) => isPublicAddress(address) || (reach === 'public-and-loopback' && inList(LOOPBACK, address));

/**
 * Says neither the address a name resolved to nor whether it resolved at all: else a customer could map the
 * service's internal names through registrations and their attempts' failure reasons.
 */
const notPublic = (host: string) => `${host} does not resolve to a public address: webhooks may reach public addresses only`;

/** The nameservers failed (SERVFAIL, refused): the url may be right, and a retry later may pass. */
const unresolvedNow = (host: string, error: NodeJS.ErrnoException) =>
  `${host} could not be resolved just now (${error.code ?? error.message}): try again later`;

export class InternalAddressError extends Error {
  readonly code = 'EWEBHOOKINTERNAL';
  constructor(host: string) {
    super(notPublic(host));
  }
}

/** Production asks DNS directly, with deadlines (networkResolver); the sandbox, the system (/etc/hosts, local names). */
export const resolverFor = (reach: Reach): ResolveHost => (reach === 'public' ? networkResolver() : systemResolver);

/**
 * A lookup for sockets that refuses the addresses `reach` leaves out: the address checked is the one connected to,
 * so a name that resolves differently a moment later (DNS rebinding) gains nothing.
 */
export function reachableLookup(reach: Reach, resolve: ResolveHost = resolverFor(reach)): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    resolve(hostname, family).then(
      (addresses) => {
        const internal = addresses.find((a) => !reachable(a.address, reach));
        if (internal) return callback(new InternalAddressError(hostname), '', 0);
        if (options.all) return (callback as unknown as (e: null, all: typeof addresses) => void)(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      // A name that does not exist reads as one that leads inside: the difference would tell which internal names
      // exist. A nameserver failing (a timeout, SERVFAIL) says so: the fault is not the url's.
      (error: NodeJS.ErrnoException) =>
        callback(reach === 'public' && NO_SUCH_NAME.includes(error.code ?? '') ? new InternalAddressError(hostname) : error, '', 0),
    );
  };
}
const publicOnlyLookup = reachableLookup('public');

/** A nameserver's answer that the name has no address (dns module codes). */
const NO_SUCH_NAME = ['ENOTFOUND', 'ENODATA'];

/**
 * An address `reach` leaves out, written in a url as such: sockets skip the lookup for a literal address, so the
 * lookup never sees it, and it is refused here instead.
 */
export function internalLiteralOf(url: string, reach: Reach): InternalAddressError | undefined {
  const host = hostOf(url);
  return isIP(host) && !reachable(host, reach) ? new InternalAddressError(host) : undefined;
}

const hostOf = (url: string) => new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');

/** How long a host that passed stays passed: the route's check before the key's transaction, the use case's in it. */
const PASSED_FOR_MS = 60_000;
/** Hosts remembered at most: past it the oldest is forgotten (it is looked up again). */
const PASSED_HOSTS = 1_000;

/**
 * Registration's check (production): a url whose host resolves to an internal address, or not at all, or not within
 * `deadlineMs`, is refused. The deadline bounds how long a check waits on a name whose nameserver does not answer.
 * A host that passed is not looked up again for a minute: the HTTP route checks before its Idempotency-Key's
 * transaction opens, the use case again in it, which then waits on nothing. Connections check every address they
 * use (reachableLookup), so the memory lets no rebinding through.
 */
export class PublicAddressUrlPolicy implements WebhookUrlPolicy {
  private readonly passed = new Map<string, number>();

  constructor(
    private readonly deadlineMs = 5_000,
    private readonly lookup: LookupFunction = publicOnlyLookup,
    private readonly now: () => number = Date.now,
  ) {}

  async check(url: string): Promise<void> {
    const host = hostOf(url);
    if ((this.passed.get(host) ?? 0) > this.now()) return;
    let timer: NodeJS.Timeout | undefined;
    const resolved = new Promise<void>((resolve, reject) =>
      this.lookup(host, { all: true }, (error) =>
        error ? reject(ValidationError.of('url', error instanceof InternalAddressError ? notPublic(host) : unresolvedNow(host, error))) : resolve(),
      ),
    );
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(ValidationError.of('url', `${host} did not resolve within ${this.deadlineMs / 1000} s`)), this.deadlineMs);
    });
    try {
      await Promise.race([resolved, late]);
    } finally {
      clearTimeout(timer);
    }
    this.remember(host);
  }

  private remember(host: string): void {
    this.passed.delete(host);
    this.passed.set(host, this.now() + PASSED_FOR_MS);
    if (this.passed.size > PASSED_HOSTS) this.passed.delete(this.passed.keys().next().value!);
  }
}

/**
 * Sandbox: any https url but one whose host is written as a private, link-local or reserved address; loopback and
 * names are let through unresolved (a sandbox may have no DNS), and the sender's lookup refuses at connection time a
 * name that leads to an address the sandbox may not reach.
 */
export const sandboxUrlPolicy: WebhookUrlPolicy = {
  check: (url) => {
    const literal = internalLiteralOf(url, 'public-and-loopback');
    return literal ? Promise.reject(ValidationError.of('url', literal.message)) : Promise.resolve();
  },
};
