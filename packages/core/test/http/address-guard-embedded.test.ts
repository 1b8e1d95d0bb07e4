// End to end through the real HTTP client: IPv6 literals that carry a loopback IPv4 address are
// refused before any socket is opened. Loopback servers on 127.0.0.1 (and ::1 where the machine
// has it) count connections, and net.connect (what undici opens plain-HTTP sockets with) is
// watched, so "no connection was attempted" is observed, not assumed.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { createHttpClient } from '@politely/core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { guardRequest, refusal } from './guard-helpers.js';

interface CountingServer {
  readonly server: Server;
  readonly port: number;
  connections: number;
}

async function listen(host: string, port = 0): Promise<CountingServer | undefined> {
  const server = createServer((_req, res) => res.end('reached'));
  const counting = { server, port: 0, connections: 0 };
  server.on('connection', () => counting.connections++);
  const ok = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, host, () => resolve(true));
  });
  if (!ok) return undefined;
  counting.port = (server.address() as AddressInfo).port;
  return counting;
}

let v4: CountingServer;
let v6: CountingServer | undefined;
beforeAll(async () => {
  v4 = (await listen('127.0.0.1'))!;
  v6 = await listen('::1', v4.port); // the same port, so a URL's port reaches either
});
afterAll(async () => {
  for (const s of [v4, v6]) {
    if (s === undefined) continue;
    s.server.closeAllConnections();
    await new Promise((resolve) => s.server.close(resolve));
  }
});
afterEach(() => {
  vi.restoreAllMocks();
});

const connections = (): number => v4.connections + (v6?.connections ?? 0);

describe('createHttpClient refuses IPv6 literals that reach an IPv4 host or a private network', () => {
  const cases: readonly (readonly [string, string])[] = [
    ['::127.0.0.1', 'IPv4-compatible (RFC 4291, deprecated) embedding 127.0.0.1, Loopback (RFC 1122)'],
    ['64:ff9b::7f00:1', 'NAT64 (RFC 6052) embedding 127.0.0.1, Loopback (RFC 1122)'],
    ['2002:7f00:1::1', '6to4 (RFC 3056) embedding 127.0.0.1, Loopback (RFC 1122)'],
    ['::ffff:127.0.0.1', 'IPv4-mapped (RFC 4291) embedding 127.0.0.1, Loopback (RFC 1122)'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 (RFC 6052) embedding 169.254.169.254, Link Local (RFC 3927)'],
    ['2001::80ff:fffe', 'Teredo (RFC 4380), a tunnel to 127.0.0.1'],
    ['0:0:0:0:0:0:7F00:1', 'IPv4-compatible (RFC 4291, deprecated) embedding 127.0.0.1'],
    ['::1', 'Loopback Address (RFC 4291)'],
  ];
  for (const [literal, description] of cases) {
    it(`http://[${literal}]:PORT/ fails with ERR_ADDRESS_BLOCKED and opens no socket`, async () => {
      const connect = vi.spyOn(net, 'connect');
      const client = createHttpClient({ blockPrivateNetworks: true });
      const before = connections();
      const error = await refusal(client.get(guardRequest(`http://[${literal}]:${v4.port}/`)));
      expect(error.code).toBe('ERR_ADDRESS_BLOCKED');
      expect(error.message).toContain(description);
      expect(connect).not.toHaveBeenCalled();
      expect(connections()).toBe(before);
      await client.close();
    });
  }

  it('an allowNet of 127.0.0.0/8 does not open NAT64, 6to4 or Teredo spellings of 127.0.0.1', async () => {
    const connect = vi.spyOn(net, 'connect');
    const client = createHttpClient({ blockPrivateNetworks: true, allowNet: ['127.0.0.0/8'] });
    const before = connections();
    for (const literal of ['64:ff9b::7f00:1', '2002:7f00:1::1', '2001::80ff:fffe']) {
      expect((await refusal(client.get(guardRequest(`http://[${literal}]:${v4.port}/`)))).code, literal).toBe(
        'ERR_ADDRESS_BLOCKED',
      );
    }
    expect(connect).not.toHaveBeenCalled();
    expect(connections()).toBe(before);
    await client.close();
  });

  it('the watch on net.connect sees a connection when one is allowed (the control)', async () => {
    const connect = vi.spyOn(net, 'connect');
    const client = createHttpClient({ blockPrivateNetworks: true, allowNet: ['127.0.0.0/8'] });
    const before = v4.connections;
    expect((await client.get(guardRequest(`http://127.0.0.1:${v4.port}/`))).status).toBe(200);
    expect(connect).toHaveBeenCalled();
    expect(v4.connections).toBe(before + 1);
    await client.close();
  });

  it('an allowNet of 127.0.0.0/8 opens ::ffff:127.0.0.1, judged by the IPv4 address it is', async (context) => {
    if (v6 === undefined) context.skip(); // no IPv6 on this machine: no IPv4-mapped sockets either
    const client = createHttpClient({ blockPrivateNetworks: true, allowNet: ['127.0.0.0/8'] });
    const before = v4.connections;
    expect((await client.get(guardRequest(`http://[::ffff:127.0.0.1]:${v4.port}/`))).status).toBe(200);
    expect(v4.connections).toBe(before + 1);
    await client.close();
  });
});
