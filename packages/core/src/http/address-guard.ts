// The SSRF guard: which IP addresses a crawler may connect to. A crawler reads URLs written by
// strangers; without this, one link to http://169.254.169.254/ or http://10.0.0.1/admin turns it
// against the network it runs in. Checked after DNS resolution, on every connection (so on every
// redirect hop), and the connection goes to the very address that was checked.

import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { PolitelyError } from '../errors.js';
import { describeValue, type OptionChecks } from '../options/option-checks.js';
import { type HostResolver, systemResolver } from './host-resolver.js';
import { IPV4_SPECIAL_PURPOSE, IPV6_SPECIAL_PURPOSE, type SpecialPurposeBlock } from './special-purpose-addresses.js';

// The rule: an address is refused unless it is globally reachable per the IANA special-purpose
// address registries (special-purpose-addresses.ts; the most specific block holding it decides;
// an address in no block is public). IPv6 forms that carry an IPv4 address are judged by it:
//   - IPv4-mapped ::ffff:a.b.c.d and IPv4-compatible ::a.b.c.d (deprecated) ARE that IPv4 host:
//     judged as it, and an allowNet holding the IPv4 address opens them too;
//   - NAT64 64:ff9b::/96 reaches the IPv4 address in its last 32 bits through a translator:
//     judged by it (RFC 6052 forbids non-global ones there), but only an allowNet holding the IPv6
//     address opens it (the translator's 127.0.0.1 is not the crawler's). IPv4-translated
//     ::ffff:0:a.b.c.d (SIIT) is treated the same way. Local-use NAT64 64:ff9b:1::/48 is refused
//     (not globally reachable);
//   - 6to4 2002:AABB:CCDD::/48 (the IPv4 address in bits 16-47) is refused whatever it embeds: the
//     registry gives it no global reachability and its relays are deprecated (RFC 7526); the
//     message names the embedded address;
//   - Teredo 2001::/32 is refused whatever it embeds: it tunnels to an arbitrary IPv4 client
//     (stored inverted in the last 32 bits); the message names client and server.
// An allowNet CIDR matching the address as written always opens it (`2002::/16` opens 6to4).

interface Network {
  readonly bytes: Uint8Array;
  readonly bits: number;
}

interface Block extends SpecialPurposeBlock {
  readonly network: Network;
}

/** How an IPv6 block carries an IPv4 address, keyed by the block's prefix. */
const EMBEDDINGS: Readonly<
  Record<string, { readonly label: string; readonly rule: 'same-host' | 'translated' | 'refused'; readonly at: number }>
> = {
  '::ffff:0:0/96': { label: 'IPv4-mapped (RFC 4291)', rule: 'same-host', at: 12 },
  '::/96': { label: 'IPv4-compatible (RFC 4291, deprecated)', rule: 'same-host', at: 12 },
  '64:ff9b::/96': { label: 'NAT64 (RFC 6052)', rule: 'translated', at: 12 },
  '::ffff:0:0:0/96': { label: 'IPv4-translated (RFC 2765)', rule: 'translated', at: 12 },
  '2002::/16': { label: '6to4 (RFC 3056)', rule: 'refused', at: 2 },
};
const TEREDO = '2001::/32';

/**
 * The bytes of an IP literal (4 or 16; an IPv6 zone id such as `%eth0` is dropped), or
 * undefined when `address` is not one.
 */
function addressBytes(address: string): Uint8Array | undefined {
  const version = isIP(address);
  if (version === 4) return Uint8Array.from(address.split('.'), Number);
  if (version !== 6) return undefined;
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  // A trailing dotted quad (::ffff:10.0.0.1) becomes two groups.
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad !== null) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const split = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const groups =
    tail === undefined
      ? split(head)
      : [...split(head), ...Array<string>(8 - split(head).length - split(tail).length).fill('0'), ...split(tail)];
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    const value = parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  });
  return bytes;
}

function toNetwork(cidr: string): Network {
  const { address, prefix } = parseCidr(cidr);
  return { bytes: addressBytes(address)!, bits: prefix };
}

function contains(network: Network, bytes: Uint8Array): boolean {
  if (network.bytes.length !== bytes.length) return false;
  const whole = network.bits >> 3;
  for (let i = 0; i < whole; i++) if (network.bytes[i] !== bytes[i]) return false;
  const rest = network.bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((network.bytes[whole]! ^ bytes[whole]!) & mask) === 0;
}

const BLOCKS: { readonly 4: readonly Block[]; readonly 6: readonly Block[] } = {
  4: IPV4_SPECIAL_PURPOSE.map((block) => ({ ...block, network: toNetwork(block.prefix) })),
  6: IPV6_SPECIAL_PURPOSE.map((block) => ({ ...block, network: toNetwork(block.prefix) })),
};

/** The most specific special-purpose block holding `bytes`, if any. */
function blockOf(bytes: Uint8Array): Block | undefined {
  let best: Block | undefined;
  for (const block of bytes.length === 4 ? BLOCKS[4] : BLOCKS[6]) {
    if (contains(block.network, bytes) && (best === undefined || block.network.bits > best.network.bits)) best = block;
  }
  return best;
}

const ipv4Text = (bytes: Uint8Array): string => bytes.join('.');
const named = (block: Block): string => `${block.name} (${block.rfc})`;

interface Verdict {
  /** Globally reachable, so allowed without an allowNet. */
  readonly reachable: boolean;
  /** What the address is, for the error message. */
  readonly description: string;
  /** The IPv4 host an IPv4-mapped or IPv4-compatible address is. */
  readonly sameHost?: Uint8Array;
}

function judgeIPv4(bytes: Uint8Array): Verdict {
  const block = blockOf(bytes);
  if (block === undefined) return { reachable: true, description: 'a public address' };
  return { reachable: block.globallyReachable, description: named(block) };
}

/** What `bytes` (an IPv4 or IPv6 address) is, and whether the registries call it globally reachable. */
function judge(bytes: Uint8Array): Verdict {
  if (bytes.length === 4) return judgeIPv4(bytes);
  const block = blockOf(bytes);
  if (block === undefined) return { reachable: true, description: 'a public address' };
  if (block.prefix === TEREDO) {
    const server = bytes.slice(4, 8);
    const client = bytes.slice(12, 16).map((byte) => byte ^ 0xff);
    return {
      reachable: false,
      description: `Teredo (RFC 4380), a tunnel to ${ipv4Text(client)} (${judgeIPv4(client).description}) through server ${ipv4Text(server)}, refused whatever it carries`,
    };
  }
  const embedding = EMBEDDINGS[block.prefix];
  if (embedding === undefined) return { reachable: block.globallyReachable, description: named(block) };
  const ipv4 = bytes.slice(embedding.at, embedding.at + 4);
  const inner = judgeIPv4(ipv4);
  const description = `${embedding.label} embedding ${ipv4Text(ipv4)}, ${inner.description}`;
  if (embedding.rule === 'refused') {
    return {
      reachable: false,
      description: inner.reachable
        ? `${description}; 6to4 relays are deprecated (RFC 7526), refused whatever it carries`
        : description,
    };
  }
  return { reachable: inner.reachable, description, ...(embedding.rule === 'same-host' ? { sameHost: ipv4 } : {}) };
}

/**
 * What an IP literal is to the guard, e.g. `Loopback (RFC 1122)` or `6to4 (RFC 3056) embedding
 * 127.0.0.1, Loopback (RFC 1122)`, and whether it is globally reachable (allowNet aside).
 */
export function describeAddress(address: string): {
  readonly globallyReachable: boolean;
  readonly description: string;
} {
  const bytes = addressBytes(address);
  if (bytes === undefined) return { globallyReachable: false, description: 'not an IP address' };
  const { reachable, description } = judge(bytes);
  return { globallyReachable: reachable, description };
}

/** Which IP addresses may be connected to: the SSRF guard that `createAddressPolicy` makes. */
export interface AddressPolicy {
  /** Whether `address` (an IP literal) may be connected to. */
  allows(address: string): boolean;
}

/**
 * Parses `a.b.c.d/n` or `x::y/n` (a bare address means a single host).
 * @throws PolitelyError `ERR_INVALID_OPTION` naming the value
 */
export function parseCidr(cidr: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } {
  const parts = cidr.trim().split('/');
  const [address = '', prefixText] = parts;
  const version = parts.length > 2 ? 0 : isIP(address);
  if (version === 0)
    throw new PolitelyError('ERR_INVALID_OPTION', `invalid network '${cidr}': not an IP address or CIDR`);
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (
    !Number.isInteger(prefix) ||
    prefix < 0 ||
    prefix > max ||
    (prefixText !== undefined && !/^\d+$/.test(prefixText))
  ) {
    throw new PolitelyError('ERR_INVALID_OPTION', `invalid network '${cidr}': prefix must be 0–${max}`);
  }
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/**
 * The policy: globally reachable addresses allowed (see the rule above); the rest refused unless
 * in `allowNet`. Anything that is not an IP literal is refused.
 */
/** A list of CIDR networks (`127.0.0.0/8`, `fd00::/8`), each read by `parseCidr`; else `check.fail` names the option. */
export function checkNetworks(
  check: Pick<OptionChecks, 'fail'>,
  name: string,
  value: readonly string[] | undefined,
): readonly string[] {
  const list = value === undefined ? [] : value;
  if (!Array.isArray(list)) check.fail(`${name} must be an array of CIDR networks, got ${describeValue(list)}`);
  for (const cidr of list) {
    if (typeof cidr !== 'string') check.fail(`${name}: networks are strings, got ${describeValue(cidr)}`);
    try {
      parseCidr(cidr);
    } catch (error) {
      check.fail(`${name}: ${(error as Error).message}`);
    }
  }
  return list;
}

/**
 * The SSRF guard: an `AddressPolicy` that refuses private, loopback, link-local and other
 * non-global addresses, except those in `allowNet` (CIDR blocks or addresses).
 */
export function createAddressPolicy(allowNet: readonly string[]): AddressPolicy {
  const allowed = allowNet.map(toNetwork);
  const isAllowed = (bytes: Uint8Array): boolean => allowed.some((network) => contains(network, bytes));
  return {
    allows(address) {
      const bytes = addressBytes(address);
      if (bytes === undefined) return false;
      if (isAllowed(bytes)) return true;
      const verdict = judge(bytes);
      if (verdict.sameHost !== undefined && isAllowed(verdict.sameHost)) return true;
      return verdict.reachable;
    },
  };
}

export function blockedAddressError(host: string, address: string): PolitelyError {
  return new PolitelyError(
    'ERR_ADDRESS_BLOCKED',
    `refused to connect to ${host}: ${address} is ${describeAddress(address).description}, not a globally reachable address (IANA special-purpose address registries); allow it with allowNet (--allow-net CIDR)`,
  );
}

/** The callback of a net/tls `lookup`: one address and its family, or all of them with `all: true`. */
export type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for net/tls.connect (undici's `connect.lookup`): resolves `hostname` for a socket. */
export type AddressLookup = (
  hostname: string,
  options: { all?: boolean; family?: number | string },
  callback: LookupCallback,
) => void;

/**
 * Answers a lookup with what `addresses` settles to: the first address, or all of them with
 * `all: true`. The callback runs outside the promise, so net's own errors are not swallowed.
 */
export function answerLookup(
  hostname: string,
  addresses: Promise<readonly LookupAddress[]>,
  all: boolean | undefined,
  callback: LookupCallback,
): void {
  addresses.then(
    (list) =>
      process.nextTick(() => {
        const first = list[0];
        if (first === undefined)
          return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
        if (all === true) return callback(null, [...list]);
        callback(null, first.address, first.family);
      }),
    (error: unknown) =>
      process.nextTick(() =>
        callback((error instanceof Error ? error : new Error(String(error))) as NodeJS.ErrnoException, []),
      ),
  );
}

/**
 * A `lookup` for net/tls.connect that resolves the host through `resolve`, refuses it if ANY of
 * its addresses is blocked (a name that resolves to both a public and a private address is an
 * attack), and hands back the checked address, so the socket connects to it with no second
 * lookup. Every address is judged, whatever family the socket asks for.
 */
export function createGuardedLookup(policy: AddressPolicy, resolve: HostResolver = systemResolver): AddressLookup {
  return (hostname, options, callback) => {
    const family = Number(options.family) || 0;
    const checked = Promise.resolve()
      .then(() => resolve(hostname))
      .then((answer) => {
        const refused = answer.find((entry) => !policy.allows(entry.address));
        if (refused !== undefined) throw blockedAddressError(hostname, refused.address);
        return answer
          .filter((entry) => family === 0 || entry.family === family)
          .map(({ address, family }) => ({ address, family }));
      });
    answerLookup(hostname, checked, options.all, callback);
  };
}

/**
 * Resolves `hostname` through `resolve` and rejects with the guard's `ERR_ADDRESS_BLOCKED` if any
 * of its addresses is refused; an IP literal is judged as it is. For connections the client
 * does not open itself: through a proxy, the proxy resolves the target's name, so the client
 * checks the name first (a name whose answer changes between the two lookups can still slip
 * through: the proxy's own egress rules are the second line).
 */
export function checkHostAllowed(
  hostname: string,
  policy: AddressPolicy,
  resolve: HostResolver = systemResolver,
): Promise<void> {
  const literal = hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) !== 0)
    return policy.allows(literal) ? Promise.resolve() : Promise.reject(blockedAddressError(hostname, literal));
  const lookup = createGuardedLookup(policy, resolve);
  return new Promise((resolve, reject) => {
    lookup(hostname, { all: true }, (error) => (error === null ? resolve() : reject(error)));
  });
}
