import { describe, expect, it } from 'vitest';
import { blockedAddressError, createAddressPolicy, describeAddress } from '../../src/http/address-guard.js';
import {
  IPV4_SPECIAL_PURPOSE,
  IPV6_SPECIAL_PURPOSE,
  type SpecialPurposeBlock,
} from '../../src/http/special-purpose-addresses.js';

// The test's own model of the rule, on BigInts (the guard works on bytes): the most specific row
// decides; embedded IPv4 forms are judged by the IPv4 address; 6to4 and Teredo are always refused.

const guard = createAddressPolicy([]);

function toBigInt(address: string): { value: bigint; width: 32 | 128 } {
  if (!address.includes(':'))
    return { value: address.split('.').reduce((n, octet) => (n << 8n) | BigInt(octet), 0n), width: 32 };
  let text = address;
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad !== null) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = text.slice(0, quad.index) + (a * 256 + b).toString(16) + ':' + (c * 256 + d).toString(16);
  }
  const halves = text.split('::');
  const left = halves[0] ? halves[0].split(':') : [];
  const right = halves.length > 1 && halves[1] ? halves[1].split(':') : [];
  const groups = [...left, ...new Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return { value: groups.reduce((n, group) => (n << 16n) | BigInt(parseInt(group, 16)), 0n), width: 128 };
}

function fromBigInt(value: bigint, width: 32 | 128): string {
  if (width === 32) return [24n, 16n, 8n, 0n].map((shift) => (value >> shift) & 0xffn).join('.');
  return Array.from({ length: 8 }, (_, i) => ((value >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');
}

/** The same IPv6 address, fully written out, zero-padded and upper case: `0000:0000:…:7F00:0001`. */
const expandedUpper = (value: bigint): string =>
  Array.from({ length: 8 }, (_, i) => ((value >> BigInt(112 - 16 * i)) & 0xffffn).toString(16).padStart(4, '0'))
    .join(':')
    .toUpperCase();
/** The compressed spelling WHATWG URL parsing gives: `::7f00:1`. */
const compressed = (address: string): string => new URL(`http://[${address}]/`).hostname.slice(1, -1);

interface Row {
  readonly block: SpecialPurposeBlock;
  readonly first: bigint;
  readonly last: bigint;
  readonly bits: number;
  readonly width: 32 | 128;
}
const rows: Row[] = [...IPV4_SPECIAL_PURPOSE, ...IPV6_SPECIAL_PURPOSE].map((block) => {
  const [base = '', bitsText = ''] = block.prefix.split('/');
  const { value, width } = toBigInt(base);
  const bits = Number(bitsText);
  const hostMask = (1n << BigInt(width - bits)) - 1n;
  return { block, first: value & ~hostMask, last: (value & ~hostMask) | hostMask, bits, width };
});

function expected(value: bigint, width: 32 | 128): boolean {
  const row = rows
    .filter((r) => r.width === width && value >= r.first && value <= r.last)
    .sort((a, b) => b.bits - a.bits)[0];
  if (row === undefined) return true;
  const last32 = value & 0xffffffffn;
  switch (row.block.prefix) {
    case '::ffff:0:0/96':
    case '::/96':
    case '::ffff:0:0:0/96':
    case '64:ff9b::/96':
      return expected(last32, 32);
    case '2002::/16':
    case '2001::/32':
      return false;
    default:
      return row.block.globallyReachable;
  }
}

describe('the special-purpose tables', () => {
  it('hold every block the guard must know, with well-formed rows', () => {
    const prefixes = rows.map((r) => r.block.prefix);
    for (const prefix of [
      '0.0.0.0/8',
      '10.0.0.0/8',
      '100.64.0.0/10',
      '127.0.0.0/8',
      '169.254.0.0/16',
      '172.16.0.0/12',
      '192.0.0.0/24',
      '192.0.0.0/29',
      '192.0.0.8/32',
      '192.0.0.9/32',
      '192.0.0.10/32',
      '192.0.0.170/32',
      '192.0.0.171/32',
      '192.0.2.0/24',
      '192.31.196.0/24',
      '192.52.193.0/24',
      '192.88.99.0/24',
      '192.168.0.0/16',
      '192.175.48.0/24',
      '198.18.0.0/15',
      '198.51.100.0/24',
      '203.0.113.0/24',
      '240.0.0.0/4',
      '255.255.255.255/32',
      '224.0.0.0/4',
      '::1/128',
      '::/128',
      '::ffff:0:0/96',
      '64:ff9b::/96',
      '64:ff9b:1::/48',
      '100::/64',
      '2001::/23',
      '2001::/32',
      '2001:1::1/128',
      '2001:1::2/128',
      '2001:2::/48',
      '2001:3::/32',
      '2001:4:112::/48',
      '2001:10::/28',
      '2001:20::/28',
      '2001:30::/28',
      '2001:db8::/32',
      '2002::/16',
      '2620:4f:8000::/48',
      'fc00::/7',
      'fe80::/10',
      'ff00::/8',
      '3fff::/20',
      '5f00::/16',
      '::/96',
    ]) {
      expect(prefixes, prefix).toContain(prefix);
    }
    for (const { block, first } of rows) {
      expect(block.name.length, block.prefix).toBeGreaterThan(0);
      expect(block.rfc, block.prefix).toMatch(/^RFC \d+(, RFC \d+)*$/);
      // The prefix is a network address: no host bits set.
      expect(toBigInt(block.prefix.split('/')[0]!).value, block.prefix).toBe(first);
    }
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });

  it('mark the rows that are not in the IANA registry', () => {
    const outside = rows.filter((r) => r.block.outsideRegistry !== undefined).map((r) => r.block.prefix);
    expect(outside.sort()).toEqual(['224.0.0.0/4', '::/96', '::ffff:0:0:0/96', 'fec0::/10', 'ff00::/8'].sort());
  });
});

describe('every registry row', () => {
  for (const { block, first, last, bits, width } of rows) {
    it(`${block.prefix} (${block.name}): inside is refused unless globally reachable, just outside is judged by its own block`, () => {
      const inside = [first, last, first + (last - first) / 2n];
      for (const value of inside) {
        const address = fromBigInt(value, width);
        expect(guard.allows(address), address).toBe(expected(value, width));
        if (width === 128) {
          expect(guard.allows(expandedUpper(value)), expandedUpper(value)).toBe(expected(value, width));
          expect(guard.allows(compressed(address)), compressed(address)).toBe(expected(value, width));
        }
      }
      // The registry's own verdict for the block holds at its first address whenever no more
      // specific row and no embedded address overrides it.
      const plain = !['::ffff:0:0/96', '::/96', '::ffff:0:0:0/96', '64:ff9b::/96', '2002::/16', '2001::/32'].includes(
        block.prefix,
      );
      const overridden = rows.some(
        (r) => r.block !== block && r.width === width && r.bits > bits && first >= r.first && first <= r.last,
      );
      if (plain && !overridden) {
        expect(guard.allows(fromBigInt(first, width))).toBe(block.globallyReachable);
        expect(describeAddress(fromBigInt(first, width)).description).toBe(`${block.name} (${block.rfc})`);
      }
      const max = width === 32 ? 0xffffffffn : (1n << 128n) - 1n;
      for (const value of [first - 1n, last + 1n]) {
        if (value < 0n || value > max) continue;
        const address = fromBigInt(value, width);
        expect(guard.allows(address), `${address} just outside ${block.prefix}`).toBe(expected(value, width));
      }
    });
  }

  it('lets the more specific row win (192.0.0.9 in 192.0.0.0/24, 2001:1::1 in 2001::/23)', () => {
    expect(guard.allows('192.0.0.9')).toBe(true);
    expect(guard.allows('192.0.0.10')).toBe(true);
    expect(guard.allows('192.0.0.11')).toBe(false);
    expect(guard.allows('192.0.0.8')).toBe(false);
    expect(guard.allows('2001:1::1')).toBe(true);
    expect(guard.allows('2001:1::4')).toBe(false);
    expect(guard.allows('2001:3::1')).toBe(true);
    expect(guard.allows('2001:20::1')).toBe(true);
    expect(guard.allows('2001:db8::1')).toBe(false);
  });
});

describe('IPv6 forms that carry an IPv4 address', () => {
  const cases: readonly (readonly [string, boolean, string])[] = [
    ['::127.0.0.1', false, 'IPv4-compatible (RFC 4291, deprecated) embedding 127.0.0.1, Loopback (RFC 1122)'],
    ['::7f00:1', false, 'IPv4-compatible (RFC 4291, deprecated) embedding 127.0.0.1, Loopback (RFC 1122)'],
    ['0:0:0:0:0:0:7F00:0001', false, 'embedding 127.0.0.1, Loopback'],
    ['::a9fe:a9fe', false, 'embedding 169.254.169.254, Link Local (RFC 3927)'],
    ['::8.8.8.8', true, 'IPv4-compatible (RFC 4291, deprecated) embedding 8.8.8.8, a public address'],
    ['::ffff:10.0.0.1', false, 'IPv4-mapped (RFC 4291) embedding 10.0.0.1, Private-Use (RFC 1918)'],
    ['::ffff:a00:1', false, 'IPv4-mapped (RFC 4291) embedding 10.0.0.1'],
    ['0000:0000:0000:0000:0000:FFFF:0A00:0001', false, 'IPv4-mapped (RFC 4291) embedding 10.0.0.1'],
    ['::FFFF:127.0.0.1', false, 'IPv4-mapped (RFC 4291) embedding 127.0.0.1, Loopback (RFC 1122)'],
    ['::ffff:8.8.8.8', true, 'IPv4-mapped (RFC 4291) embedding 8.8.8.8, a public address'],
    ['::ffff:0:127.0.0.1', false, 'IPv4-translated (RFC 2765) embedding 127.0.0.1, Loopback'],
    ['64:ff9b::7f00:1', false, 'NAT64 (RFC 6052) embedding 127.0.0.1, Loopback (RFC 1122)'],
    ['64:ff9b::127.0.0.1', false, 'NAT64 (RFC 6052) embedding 127.0.0.1, Loopback (RFC 1122)'],
    ['64:FF9B:0:0:0:0:7F00:1', false, 'NAT64 (RFC 6052) embedding 127.0.0.1'],
    ['64:ff9b::a9fe:a9fe', false, 'NAT64 (RFC 6052) embedding 169.254.169.254, Link Local (RFC 3927)'],
    ['64:ff9b::c0a8:101', false, 'NAT64 (RFC 6052) embedding 192.168.1.1, Private-Use (RFC 1918)'],
    ['64:ff9b::808:808', true, 'NAT64 (RFC 6052) embedding 8.8.8.8, a public address'],
    ['64:ff9b:1::808:808', false, 'IPv4-IPv6 Translation (RFC 8215)'],
    ['2002:7f00:1::1', false, '6to4 (RFC 3056) embedding 127.0.0.1, Loopback (RFC 1122)'],
    ['2002:0a00:0001::1', false, '6to4 (RFC 3056) embedding 10.0.0.1, Private-Use (RFC 1918)'],
    ['2002:A9FE:A9FE::', false, '6to4 (RFC 3056) embedding 169.254.169.254'],
    [
      '2002:808:808::1',
      false,
      '6to4 (RFC 3056) embedding 8.8.8.8, a public address; 6to4 relays are deprecated (RFC 7526)',
    ],
    // RFC 4380's example: server 65.54.227.120, client 192.0.2.45 stored inverted (3fff:fdd2).
    [
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      false,
      'Teredo (RFC 4380), a tunnel to 192.0.2.45 (Documentation (TEST-NET-1) (RFC 5737)) through server 65.54.227.120',
    ],
    // A Teredo address whose client is 127.0.0.1 (80ff:fffe inverted), and one to a public client.
    ['2001::80ff:fffe', false, 'a tunnel to 127.0.0.1 (Loopback (RFC 1122))'],
    [
      '2001:0:808:808::f7f7:f7f7',
      false,
      'Teredo (RFC 4380), a tunnel to 8.8.8.8 (a public address) through server 8.8.8.8',
    ],
  ];
  for (const [address, allowed, description] of cases) {
    it(`${address} is ${allowed ? 'allowed' : 'refused'}: ${description}`, () => {
      expect(guard.allows(address)).toBe(allowed);
      expect(describeAddress(address).description).toContain(description);
    });
  }

  it('judges :: and ::1 by their own rows, not as IPv4-compatible', () => {
    expect(describeAddress('::').description).toBe('Unspecified Address (RFC 4291)');
    expect(describeAddress('::1').description).toBe('Loopback Address (RFC 4291)');
    expect(describeAddress('::0.0.0.1').description).toBe('Loopback Address (RFC 4291)');
    expect(guard.allows('::2')).toBe(false);
  });
});

describe('spellings', () => {
  it('reads compressed, expanded, upper-case and zone-id spellings alike', () => {
    for (const address of [
      'fe80::1%eth0',
      'FE80::1%25eth0',
      'fe80:0:0:0:0:0:0:1%1',
      'FE80:0000:0000:0000:0000:0000:0000:0001',
      'fd00::1',
      'FD12:3456::1',
      '::1',
      '0:0:0:0:0:0:0:1',
      '0000:0000:0000:0000:0000:0000:0000:0001',
    ]) {
      expect(guard.allows(address), address).toBe(false);
    }
    for (const address of [
      '2606:4700::1111',
      '2606:4700:0:0:0:0:0:1111',
      '2606:4700:0000:0000:0000:0000:0000:1111',
      '2606:4700::1111'.toUpperCase(),
      '2001:4860:4860::8888',
    ]) {
      expect(guard.allows(address), address).toBe(true);
    }
    expect(describeAddress('fe80::1%eth0').description).toBe('Link-Local Unicast (RFC 4291)');
  });

  it('refuses what is not an IP literal', () => {
    for (const address of ['', 'localhost', '127.1', '0x7f000001', '[::1]', '1.2.3.4%eth0', '::1::1', '2130706433']) {
      expect(guard.allows(address), address).toBe(false);
    }
  });

  it('allows public addresses of both families', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '93.184.216.34',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700::1111',
      '2a00:1450:4001::1',
    ]) {
      expect(guard.allows(address), address).toBe(true);
    }
  });
});

describe('allowNet', () => {
  it('opens an IPv4 network, and the IPv4-mapped and IPv4-compatible spellings of its hosts', () => {
    const open = createAddressPolicy(['127.0.0.0/8']);
    for (const address of [
      '127.0.0.1',
      '127.9.9.9',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::FFFF:7F00:0001',
      '::127.0.0.1',
      '::7f00:1',
    ]) {
      expect(open.allows(address), address).toBe(true);
    }
  });

  it('does not open NAT64, 6to4 or Teredo addresses that embed an allowed IPv4 address: they reach other machines', () => {
    const open = createAddressPolicy(['127.0.0.0/8', '10.0.0.0/8']);
    for (const address of [
      '64:ff9b::7f00:1',
      '2002:7f00:1::1',
      '2002:a00:1::1',
      '2001::80ff:fffe',
      '::ffff:0:127.0.0.1',
      '::ffff:192.168.0.1',
    ]) {
      expect(open.allows(address), address).toBe(false);
    }
  });

  it('opens an IPv6 network as written, whatever it embeds', () => {
    expect(createAddressPolicy(['64:ff9b::/96']).allows('64:ff9b::7f00:1')).toBe(true);
    expect(createAddressPolicy(['2002::/16']).allows('2002:7f00:1::1')).toBe(true);
    expect(createAddressPolicy(['2001::/32']).allows('2001::80ff:fffe')).toBe(true);
    expect(createAddressPolicy(['::ffff:127.0.0.1']).allows('::ffff:7f00:1')).toBe(true);
    expect(createAddressPolicy(['::ffff:127.0.0.1']).allows('127.0.0.1')).toBe(false);
    expect(createAddressPolicy(['fe80::/10']).allows('fe80::1%eth0')).toBe(true);
    expect(createAddressPolicy(['fd00::/8']).allows('fd00::1')).toBe(true);
    expect(createAddressPolicy(['fd00::/8']).allows('fc00::1')).toBe(false);
  });

  it('matches IPv4 networks to IPv4 addresses only and IPv6 networks to IPv6 addresses only', () => {
    expect(createAddressPolicy(['0.0.0.0/0']).allows('::1')).toBe(false);
    expect(createAddressPolicy(['::/0']).allows('127.0.0.1')).toBe(false);
    expect(createAddressPolicy(['::/0']).allows('::1')).toBe(true);
  });
});

describe('blockedAddressError', () => {
  it('names the host, the address and what the registries call it', () => {
    const error = blockedAddressError('evil.test', '2002:7f00:1::1');
    expect(error.code).toBe('ERR_ADDRESS_BLOCKED');
    expect(error.message).toContain(
      'refused to connect to evil.test: 2002:7f00:1::1 is 6to4 (RFC 3056) embedding 127.0.0.1, Loopback (RFC 1122)',
    );
    expect(error.message).toContain('allowNet');
    expect(blockedAddressError('[64:ff9b::a9fe:a9fe]', '64:ff9b::a9fe:a9fe').message).toContain(
      '64:ff9b::a9fe:a9fe is NAT64 (RFC 6052) embedding 169.254.169.254, Link Local (RFC 3927)',
    );
    expect(blockedAddressError('x.test', '224.0.0.1').message).toContain('224.0.0.1 is Multicast (RFC 5771)');
  });
});
