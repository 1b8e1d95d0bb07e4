// The SSRF guard: which IP addresses a crawler may connect to. A crawler reads URLs written by
// strangers; without this, one link to http://169.254.169.254/ or http://10.0.0.1/admin turns it
// against the network it runs in. Checked after DNS resolution, on every connection (so on every
// redirect hop), and the connection goes to the very address that was checked.

import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { PolitelyError } from '../errors.js';

/** Networks refused unless allowed: loopback, private, link-local (cloud metadata), unique-local, unspecified, and other non-public ranges. */
const BLOCKED_NETWORKS: readonly (readonly [string, number, 'ipv4' | 'ipv6'])[] = [
  ['0.0.0.0', 8, 'ipv4'], // "this network", unspecified
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'], // link-local, incl. 169.254.169.254 metadata
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['::', 128, 'ipv6'], // unspecified
  ['::1', 128, 'ipv6'], // loopback
  ['fc00::', 7, 'ipv6'], // unique-local
  ['fe80::', 10, 'ipv6'], // link-local
  ['ff00::', 8, 'ipv6'], // multicast
];

export interface AddressPolicy {
  /** Whether `address` (an IP literal) may be connected to. */
  allows(address: string): boolean;
}

/**
 * Parses `a.b.c.d/n` or `x::y/n` (a bare address means a single host).
 * @throws PolitelyError `ERR_INVALID_OPTION` naming the value
 */
export function parseCidr(cidr: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } {
  const [address = '', prefixText] = cidr.trim().split('/');
  const version = isIP(address);
  if (version === 0) throw new PolitelyError('ERR_INVALID_OPTION', `invalid network '${cidr}': not an IP address or CIDR`);
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max || (prefixText !== undefined && !/^\d+$/.test(prefixText))) {
    throw new PolitelyError('ERR_INVALID_OPTION', `invalid network '${cidr}': prefix must be 0–${max}`);
  }
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** The policy: public addresses allowed; the blocked networks refused unless in `allowNet`. */
export function createAddressPolicy(allowNet: readonly string[]): AddressPolicy {
  const blocked = new BlockList();
  for (const [address, prefix, family] of BLOCKED_NETWORKS) blocked.addSubnet(address, prefix, family);
  const allowed = new BlockList();
  for (const cidr of allowNet) {
    const { address, prefix, family } = parseCidr(cidr);
    allowed.addSubnet(address, prefix, family);
  }
  return {
    allows(address) {
      const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      // An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is judged as the IPv4 address it carries.
      const mapped = family === 'ipv6' ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] : undefined;
      if (mapped !== undefined) return this.allows(mapped);
      if (allowed.check(address, family)) return true;
      return !blocked.check(address, family);
    },
  };
}

export function blockedAddressError(host: string, address: string): PolitelyError {
  return new PolitelyError(
    'ERR_ADDRESS_BLOCKED',
    `refused to connect to ${host} (${address}): a loopback, private, link-local or otherwise non-public address; allow it with allowNet (--allow-net CIDR)`,
  );
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls.connect that resolves the host, refuses it if ANY of its addresses is
 * blocked (a name that resolves to both a public and a private address is an attack), and hands
 * back the checked address, so the socket connects to it with no second lookup.
 */
export function createGuardedLookup(policy: AddressPolicy) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true, ...(options.family === undefined ? {} : { family: Number(options.family) || 0 }) }, (error, addresses) => {
      if (error !== null) return callback(error, []);
      const refused = addresses.find((entry) => !policy.allows(entry.address));
      if (refused !== undefined) return callback(blockedAddressError(hostname, refused.address) as unknown as NodeJS.ErrnoException, []);
      if (options.all === true) return callback(null, addresses);
      const first = addresses[0];
      if (first === undefined) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}
