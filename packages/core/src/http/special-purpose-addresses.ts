// The special-purpose address blocks the SSRF guard judges addresses by, as data.
//
// Source: the IANA "IPv4 Special-Purpose Address Registry" and "IPv6 Special-Purpose Address
// Registry" (https://www.iana.org/assignments/iana-ipv4-special-registry/ and
// .../iana-ipv6-special-registry/), structured by RFC 6890 and updated by RFC 8190 and the RFCs
// named in each row. The rows cover the IPv4 registry up to 192.0.0.170/171 (RFC 8880) and the
// IPv6 registry up to 5f00::/16 (RFC 9602); docs/politeness.md names the revisions. Compare with
// the live registries when touching this file, and when they change, change the rows here (the
// guard and its tests read them).
//
// `globallyReachable` is the registry's "Globally Reachable" column. Where the registry says N/A
// (deprecated blocks: 192.88.99.0/24, 2001::/32 Teredo, 2001:10::/28, 2002::/16 6to4) it is
// recorded as false, and `note` says so. A few rows are NOT in the registries but are never a web
// server a crawler should reach (multicast, deprecated IPv6 forms that carry an IPv4 address);
// they are marked with `outsideRegistry`, naming where they are defined instead.
//
// A more specific row wins over a less specific one: 192.0.0.9/32 (globally reachable) inside
// 192.0.0.0/24 (not), as the registry's footnote on 192.0.0.0/24 says.

export interface SpecialPurposeBlock {
  /** The block, CIDR notation. */
  readonly prefix: string;
  /** The registry's name for it. */
  readonly name: string;
  /** The RFCs that define it, e.g. `RFC 4193, RFC 8190`. */
  readonly rfc: string;
  /** The registry's "Globally Reachable" column (N/A recorded as false). */
  readonly globallyReachable: boolean;
  /** Why the row reads as it does, where the registry alone does not say. */
  readonly note?: string;
  /** Set when the row is not in the IANA special-purpose registry: where the block is defined instead. */
  readonly outsideRegistry?: string;
}

export const IPV4_SPECIAL_PURPOSE: readonly SpecialPurposeBlock[] = [
  { prefix: '0.0.0.0/8', name: '"This network"', rfc: 'RFC 791', globallyReachable: false },
  { prefix: '0.0.0.0/32', name: '"This host on this network"', rfc: 'RFC 1122', globallyReachable: false },
  { prefix: '10.0.0.0/8', name: 'Private-Use', rfc: 'RFC 1918', globallyReachable: false },
  {
    prefix: '100.64.0.0/10',
    name: 'Shared Address Space',
    rfc: 'RFC 6598',
    globallyReachable: false,
    note: 'carrier-grade NAT',
  },
  { prefix: '127.0.0.0/8', name: 'Loopback', rfc: 'RFC 1122', globallyReachable: false },
  {
    prefix: '169.254.0.0/16',
    name: 'Link Local',
    rfc: 'RFC 3927',
    globallyReachable: false,
    note: 'holds the cloud metadata service, 169.254.169.254',
  },
  { prefix: '172.16.0.0/12', name: 'Private-Use', rfc: 'RFC 1918', globallyReachable: false },
  {
    prefix: '192.0.0.0/24',
    name: 'IETF Protocol Assignments',
    rfc: 'RFC 6890',
    globallyReachable: false,
    note: 'not usable unless by virtue of a more specific reservation',
  },
  { prefix: '192.0.0.0/29', name: 'IPv4 Service Continuity Prefix', rfc: 'RFC 7335', globallyReachable: false },
  { prefix: '192.0.0.8/32', name: 'IPv4 dummy address', rfc: 'RFC 7600', globallyReachable: false },
  { prefix: '192.0.0.9/32', name: 'Port Control Protocol Anycast', rfc: 'RFC 7723', globallyReachable: true },
  {
    prefix: '192.0.0.10/32',
    name: 'Traversal Using Relays around NAT Anycast',
    rfc: 'RFC 8155',
    globallyReachable: true,
  },
  { prefix: '192.0.0.170/32', name: 'NAT64/DNS64 Discovery', rfc: 'RFC 8880, RFC 7050', globallyReachable: false },
  { prefix: '192.0.0.171/32', name: 'NAT64/DNS64 Discovery', rfc: 'RFC 8880, RFC 7050', globallyReachable: false },
  { prefix: '192.0.2.0/24', name: 'Documentation (TEST-NET-1)', rfc: 'RFC 5737', globallyReachable: false },
  { prefix: '192.31.196.0/24', name: 'AS112-v4', rfc: 'RFC 7535', globallyReachable: true },
  { prefix: '192.52.193.0/24', name: 'AMT', rfc: 'RFC 7450', globallyReachable: true },
  {
    prefix: '192.88.99.0/24',
    name: 'Deprecated (6to4 Relay Anycast)',
    rfc: 'RFC 7526',
    globallyReachable: false,
    note: 'the registry says N/A: deprecated',
  },
  { prefix: '192.168.0.0/16', name: 'Private-Use', rfc: 'RFC 1918', globallyReachable: false },
  { prefix: '192.175.48.0/24', name: 'Direct Delegation AS112 Service', rfc: 'RFC 7534', globallyReachable: true },
  { prefix: '198.18.0.0/15', name: 'Benchmarking', rfc: 'RFC 2544', globallyReachable: false },
  { prefix: '198.51.100.0/24', name: 'Documentation (TEST-NET-2)', rfc: 'RFC 5737', globallyReachable: false },
  { prefix: '203.0.113.0/24', name: 'Documentation (TEST-NET-3)', rfc: 'RFC 5737', globallyReachable: false },
  { prefix: '240.0.0.0/4', name: 'Reserved', rfc: 'RFC 1112', globallyReachable: false },
  { prefix: '255.255.255.255/32', name: 'Limited Broadcast', rfc: 'RFC 8190, RFC 919', globallyReachable: false },
  // Not in the special-purpose registry (it is the IANA IPv4 Multicast Address Space Registry's),
  // but a multicast group is never a web server: a TCP connection to one cannot succeed.
  {
    prefix: '224.0.0.0/4',
    name: 'Multicast',
    rfc: 'RFC 5771',
    globallyReachable: false,
    outsideRegistry: 'IANA IPv4 Multicast Address Space Registry',
  },
];

export const IPV6_SPECIAL_PURPOSE: readonly SpecialPurposeBlock[] = [
  { prefix: '::1/128', name: 'Loopback Address', rfc: 'RFC 4291', globallyReachable: false },
  { prefix: '::/128', name: 'Unspecified Address', rfc: 'RFC 4291', globallyReachable: false },
  {
    prefix: '::ffff:0:0/96',
    name: 'IPv4-mapped Address',
    rfc: 'RFC 4291',
    globallyReachable: false,
    note: 'the guard judges it by the IPv4 address it carries: connecting to it connects to that IPv4 host',
  },
  {
    prefix: '64:ff9b::/96',
    name: 'IPv4-IPv6 Translation',
    rfc: 'RFC 6052',
    globallyReachable: true,
    note: 'the guard judges it by the IPv4 address in its last 32 bits, which RFC 6052 says must be a global one',
  },
  {
    prefix: '64:ff9b:1::/48',
    name: 'IPv4-IPv6 Translation',
    rfc: 'RFC 8215',
    globallyReachable: false,
    note: 'local-use NAT64 prefix',
  },
  { prefix: '100::/64', name: 'Discard-Only Address Block', rfc: 'RFC 6666', globallyReachable: false },
  { prefix: '2001::/23', name: 'IETF Protocol Assignments', rfc: 'RFC 2928', globallyReachable: false },
  {
    prefix: '2001::/32',
    name: 'Teredo',
    rfc: 'RFC 4380, RFC 8190',
    globallyReachable: false,
    note: 'the registry says N/A; a Teredo address tunnels to an arbitrary IPv4 client',
  },
  { prefix: '2001:1::1/128', name: 'Port Control Protocol Anycast', rfc: 'RFC 7723', globallyReachable: true },
  {
    prefix: '2001:1::2/128',
    name: 'Traversal Using Relays around NAT Anycast',
    rfc: 'RFC 8155',
    globallyReachable: true,
  },
  {
    prefix: '2001:1::3/128',
    name: 'DNS-SD Service Registration Protocol Anycast',
    rfc: 'RFC 9665',
    globallyReachable: true,
  },
  { prefix: '2001:2::/48', name: 'Benchmarking', rfc: 'RFC 5180', globallyReachable: false },
  { prefix: '2001:3::/32', name: 'AMT', rfc: 'RFC 7450', globallyReachable: true },
  { prefix: '2001:4:112::/48', name: 'AS112-v6', rfc: 'RFC 7535', globallyReachable: true },
  {
    prefix: '2001:10::/28',
    name: 'Deprecated (previously ORCHID)',
    rfc: 'RFC 4843',
    globallyReachable: false,
    note: 'the registry says N/A: deprecated',
  },
  { prefix: '2001:20::/28', name: 'ORCHIDv2', rfc: 'RFC 7343', globallyReachable: true },
  {
    prefix: '2001:30::/28',
    name: 'Drone Remote ID Protocol Entity Tags (DETs) Prefix',
    rfc: 'RFC 9374',
    globallyReachable: true,
  },
  { prefix: '2001:db8::/32', name: 'Documentation', rfc: 'RFC 3849', globallyReachable: false },
  {
    prefix: '2002::/16',
    name: '6to4',
    rfc: 'RFC 3056',
    globallyReachable: false,
    note: 'the registry says N/A; its relays are deprecated (RFC 7526)',
  },
  { prefix: '2620:4f:8000::/48', name: 'Direct Delegation AS112 Service', rfc: 'RFC 7534', globallyReachable: true },
  { prefix: '3fff::/20', name: 'Documentation', rfc: 'RFC 9637', globallyReachable: false },
  { prefix: '5f00::/16', name: 'Segment Routing (SRv6) SIDs', rfc: 'RFC 9602', globallyReachable: false },
  { prefix: 'fc00::/7', name: 'Unique-Local', rfc: 'RFC 4193, RFC 8190', globallyReachable: false },
  { prefix: 'fe80::/10', name: 'Link-Local Unicast', rfc: 'RFC 4291', globallyReachable: false },
  // Not in the special-purpose registry, and never a public web server:
  {
    prefix: '::/96',
    name: 'IPv4-compatible Address (deprecated)',
    rfc: 'RFC 4291',
    globallyReachable: false,
    note: 'the guard judges it by the IPv4 address it carries (:: and ::1 are their own rows)',
    outsideRegistry: 'RFC 4291 section 2.5.5.1',
  },
  {
    prefix: '::ffff:0:0:0/96',
    name: 'IPv4-translated Address (SIIT)',
    rfc: 'RFC 2765',
    globallyReachable: false,
    note: 'the guard judges it by the IPv4 address it carries',
    outsideRegistry: 'RFC 2765 section 2.1 (obsoleted by RFC 6145)',
  },
  {
    prefix: 'fec0::/10',
    name: 'Site-Local Unicast (deprecated)',
    rfc: 'RFC 3879',
    globallyReachable: false,
    outsideRegistry: 'IANA IPv6 Address Space registry',
  },
  {
    prefix: 'ff00::/8',
    name: 'Multicast',
    rfc: 'RFC 4291',
    globallyReachable: false,
    outsideRegistry: 'IANA IPv6 Multicast Address Space Registry',
  },
];
