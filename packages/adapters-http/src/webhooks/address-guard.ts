import { BlockList, isIP, type LookupFunction } from 'node:net';
import { lookup } from 'node:dns';
import { ValidationError, type WebhookUrlPolicy } from '@rcs/domain';

/** Addresses a webhook must not reach in production (SSRF): loopback, private, link-local, shared and reserved ranges. */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}

/** Whether `address` is one a production webhook may connect to; an IPv4-mapped IPv6 address is judged as IPv4. */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]);
  const family = isIP(address);
  if (family === 0) return false;
  return !INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class InternalAddressError extends Error {
  readonly code = 'EWEBHOOKINTERNAL';
  constructor(host: string, address: string) {
    const where = host === address ? `${host} is` : `${host} resolves to ${address},`;
    super(`${where} an internal address webhooks may not reach`);
  }
}

/**
 * A lookup for sockets that refuses internal addresses: the address checked is the one connected to, so a name
 * that resolves differently a moment later (DNS rebinding) gains nothing.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const internal = addresses.find((a) => !isPublicAddress(a.address));
    if (internal) return callback(new InternalAddressError(hostname, internal.address), '', 0);
    if (options.all) return (callback as unknown as (e: null, all: typeof addresses) => void)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};

/**
 * An internal address written in a url as such: sockets skip the lookup for a literal address, so publicOnlyLookup
 * never sees it, and it is refused here instead.
 */
export function internalLiteralOf(url: string): InternalAddressError | undefined {
  const host = hostOf(url);
  return isIP(host) && !isPublicAddress(host) ? new InternalAddressError(host, host) : undefined;
}

const hostOf = (url: string) => new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');

/** Registration's check (production): a url whose host resolves to an internal address, or not at all, is refused. */
export class PublicAddressUrlPolicy implements WebhookUrlPolicy {
  async check(url: string): Promise<void> {
    const host = hostOf(url);
    await new Promise<void>((resolve, reject) =>
      publicOnlyLookup(host, { all: true }, (error) =>
        error ? reject(ValidationError.of('url', error instanceof InternalAddressError ? error.message : `${host} does not resolve`)) : resolve(),
      ),
    );
  }
}

/** Sandbox: any https url, local receivers included (CONTRACT). */
export const anyUrlPolicy: WebhookUrlPolicy = { check: () => Promise.resolve() };
