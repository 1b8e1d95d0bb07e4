// End to end through the real HTTP client and its own keep-alive Agent: a NAME that resolves to an
// IPv6 form carrying a loopback or metadata IPv4 address is refused after DNS, and nothing
// connects. The client has no injectable resolver, so node:dns's lookup (which the guard's lookup
// calls) is replaced for this file with a table of made-up names; any other name is ENOTFOUND.

import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpClient, type PolitelyError } from '@politely/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { guardRequest, refusal } from './guard-helpers.js';

const fakeDns = vi.hoisted(() => {
  const table: Record<string, readonly string[]> = {
    'compat.test': ['::7f00:1'],
    'nat64.test': ['64:ff9b::7f00:1'],
    'metadata-nat64.test': ['64:ff9b::a9fe:a9fe'],
    'sixtofour.test': ['2002:7f00:1::1'],
    'teredo.test': ['2001::80ff:fffe'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'mixed.test': ['8.8.8.8', '64:ff9b::7f00:1'],
    'local.test': ['127.0.0.1'],
  };
  const asked: string[] = [];
  type Callback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
  function lookup(hostname: string, options: unknown, callback?: Callback): void {
    const done = (typeof options === 'function' ? options : callback) as Callback;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all === true;
    asked.push(hostname);
    const addresses = (table[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    setImmediate(() => {
      const first = addresses[0];
      if (first === undefined)
        return done(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
      if (all) done(null, addresses);
      else done(null, first.address, first.family);
    });
  }
  return { lookup, asked };
});

vi.mock('node:dns', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns')>();
  return { ...real, default: { ...real, lookup: fakeDns.lookup }, lookup: fakeDns.lookup };
});

let server: Server;
let port: number;
let connections = 0;
beforeAll(async () => {
  server = createServer((_req, res) => res.end('reached'));
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('a name that resolves to an IPv6 form carrying a non-public IPv4 address', () => {
  it('the made-up names are really resolved through the guard (the control)', async () => {
    const client = createHttpClient({ blockPrivateNetworks: true, allowNet: ['127.0.0.0/8'] });
    const before = connections;
    expect((await client.get(guardRequest(`http://local.test:${port}/`))).status).toBe(200);
    expect(fakeDns.asked).toContain('local.test');
    expect(connections).toBe(before + 1);
    await client.close();
  });

  const cases: readonly (readonly [string, string])[] = [
    ['compat.test', '::7f00:1 is IPv4-compatible (RFC 4291, deprecated) embedding 127.0.0.1, Loopback (RFC 1122)'],
    ['nat64.test', '64:ff9b::7f00:1 is NAT64 (RFC 6052) embedding 127.0.0.1, Loopback (RFC 1122)'],
    ['metadata-nat64.test', '64:ff9b::a9fe:a9fe is NAT64 (RFC 6052) embedding 169.254.169.254, Link Local (RFC 3927)'],
    ['sixtofour.test', '2002:7f00:1::1 is 6to4 (RFC 3056) embedding 127.0.0.1, Loopback (RFC 1122)'],
    ['teredo.test', '2001::80ff:fffe is Teredo (RFC 4380), a tunnel to 127.0.0.1'],
    ['mapped.test', '::ffff:127.0.0.1 is IPv4-mapped (RFC 4291) embedding 127.0.0.1, Loopback (RFC 1122)'],
    ['mixed.test', '64:ff9b::7f00:1 is NAT64 (RFC 6052) embedding 127.0.0.1'],
  ];
  for (const [name, message] of cases) {
    it(`${name} is refused with ERR_ADDRESS_BLOCKED and nothing connects`, async () => {
      const client = createHttpClient({ blockPrivateNetworks: true });
      const before = connections;
      const error = await refusal(client.get(guardRequest(`http://${name}:${port}/`)));
      expect(error.code).toBe('ERR_ADDRESS_BLOCKED');
      expect(error.message).toContain(`refused to connect to ${name}: ${message}`);
      expect(fakeDns.asked).toContain(name);
      expect(connections).toBe(before);
      await client.close();
    });
  }

  it('an allowNet of 127.0.0.0/8 lets a name resolving to ::ffff:127.0.0.1 through, but not one resolving to NAT64', async () => {
    const client = createHttpClient({ blockPrivateNetworks: true, allowNet: ['127.0.0.0/8'] });
    expect((await refusal(client.get(guardRequest(`http://nat64.test:${port}/`)))).code).toBe('ERR_ADDRESS_BLOCKED');
    const before = connections;
    const mapped = await client.get(guardRequest(`http://mapped.test:${port}/`)).then(
      (response) => response.status,
      (error: PolitelyError) => error.code,
    );
    // The guard lets it through; the socket then reaches 127.0.0.1 where the kernel has IPv6
    // (an IPv4-mapped destination needs an IPv6 socket), and fails to connect where it has not.
    expect(mapped).not.toBe('ERR_ADDRESS_BLOCKED');
    if (mapped === 200) expect(connections).toBe(before + 1);
    await client.close();
  });
});
