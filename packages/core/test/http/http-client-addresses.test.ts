// The client connecting where an address book pinned a name, and to a request's connectAddress:
// real servers on two loopback addresses (127.0.0.5 and 127.0.0.6, one port), names made up and
// resolved by an injected resolver, never by DNS.

import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  createAddressBook,
  createAddressPolicy,
  createHttpClient,
  type HostResolver,
  type PolitelyError,
  type ResolvedAddress,
} from '@politely/core';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardRequest, refusal } from './guard-helpers.js';

interface LoopbackServer {
  readonly server: Server;
  readonly hosts: string[];
  readonly sockets: Set<Socket>;
  connections: number;
}

const servers: Record<'five' | 'six', LoopbackServer> = {} as never;
let port = 0;

/** Listens on `address`, on `port` (0: any), answering its own name and recording the Host header. */
async function listen(name: 'five' | 'six', address: string, wanted: number): Promise<number> {
  const entry: LoopbackServer = { server: createServer(), hosts: [], sockets: new Set(), connections: 0 };
  entry.server.on('request', (req, res) => {
    entry.hosts.push(String(req.headers.host));
    if (req.url === '/close') res.setHeader('connection', 'close');
    res.end(name);
  });
  entry.server.on('connection', (socket: Socket) => {
    entry.connections++;
    entry.sockets.add(socket);
    socket.on('close', () => entry.sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    entry.server.once('error', reject);
    entry.server.listen(wanted, address, resolve);
  });
  servers[name] = entry;
  return (entry.server.address() as AddressInfo).port;
}

beforeAll(async () => {
  // Both servers on one port, so one URL can reach either address.
  for (let attempt = 0; ; attempt++) {
    port = await listen('five', '127.0.0.5', 0);
    try {
      await listen('six', '127.0.0.6', port);
      break;
    } catch (error) {
      await new Promise((resolve) => servers.five.server.close(resolve));
      if (attempt === 5) throw error;
    }
  }
});

afterAll(async () => {
  for (const { server } of Object.values(servers)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A resolver answering `a.test` and `b.test` with 127.0.0.5 (changeable), counting calls. */
function loopbackResolver(extra: Record<string, readonly string[]> = {}) {
  const table: Record<string, readonly string[]> = { 'a.test': ['127.0.0.5'], 'b.test': ['127.0.0.5'], ...extra };
  const calls: string[] = [];
  const resolve: HostResolver = async (hostname) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (addresses === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, calls, table };
}

const text = (body: Uint8Array): string => new TextDecoder().decode(body);
const until = async (done: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(done()).toBe(true);
};

describe('createHttpClient({ addresses })', () => {
  it('connects names to the address the book pinned, with the URL’s Host, resolving each name once', async () => {
    const dns = loopbackResolver();
    const addresses = createAddressBook({ resolve: dns.resolve });
    const client = createHttpClient({ addresses, blockPrivateNetworks: true, allowNet: ['127.0.0.0/8'] });
    try {
      const a = await client.get(guardRequest(`http://a.test:${port}/`));
      const b = await client.get(guardRequest(`http://b.test:${port}/close`));
      await client.get(guardRequest(`http://b.test:${port}/`));
      expect([text(a.body), text(b.body)]).toEqual(['five', 'five']);
      expect(servers.five.hosts.slice(-3)).toEqual([`a.test:${port}`, `b.test:${port}`, `b.test:${port}`]);
      expect(dns.calls).toEqual(['a.test', 'b.test']);
      expect(addresses.peek('a.test')?.address).toBe('127.0.0.5');
    } finally {
      await client.close();
    }
  });

  it('follows the book when a name’s pin moves after its TTL', async () => {
    let t = 0;
    const dns = loopbackResolver();
    const addresses = createAddressBook({ resolve: dns.resolve, now: () => t });
    const client = createHttpClient({ addresses, blockPrivateNetworks: true, allowNet: ['127.0.0.0/8'] });
    try {
      expect(text((await client.get(guardRequest(`http://a.test:${port}/close`))).body)).toBe('five');
      dns.table['a.test'] = ['127.0.0.6'];
      expect(text((await client.get(guardRequest(`http://a.test:${port}/close`))).body)).toBe('five'); // still pinned
      t += 60_000;
      expect(text((await client.get(guardRequest(`http://a.test:${port}/close`))).body)).toBe('six');
    } finally {
      await client.close();
    }
  });

  it('a name with a blocked address is refused and never connects: by the book’s policy, and by the client’s guard when the book has none', async () => {
    const dns = loopbackResolver({ 'mixed.test': ['127.0.0.5', '10.0.0.1'] });
    const before = servers.five.connections;
    const guarded = createAddressBook({ resolve: dns.resolve, policy: createAddressPolicy(['127.0.0.0/8']) });
    expect((await refusal(guarded.address('mixed.test'))).code).toBe('ERR_ADDRESS_BLOCKED');
    for (const addresses of [guarded, createAddressBook({ resolve: dns.resolve })]) {
      const client = createHttpClient({ addresses, blockPrivateNetworks: true, allowNet: ['127.0.0.0/8'] });
      const error = await refusal(client.get(guardRequest(`http://mixed.test:${port}/`)));
      expect(error.code).toBe('ERR_ADDRESS_BLOCKED');
      expect(error.message).toContain(
        `GET http://mixed.test:${port}/: refused to connect to mixed.test: 10.0.0.1 is Private-Use`,
      );
      await client.close();
    }
    // The client without allowNet refuses loopback, whatever the (policy-less) book says.
    const strict = createHttpClient({
      addresses: createAddressBook({ resolve: dns.resolve }),
      blockPrivateNetworks: true,
    });
    expect((await refusal(strict.get(guardRequest(`http://a.test:${port}/`)))).code).toBe('ERR_ADDRESS_BLOCKED');
    await strict.close();
    expect(servers.five.connections).toBe(before);
  });

  it('a name that does not resolve fails with ERR_FETCH_FAILED naming it', async () => {
    const client = createHttpClient({ addresses: createAddressBook({ resolve: loopbackResolver().resolve }) });
    const error = await refusal(client.get(guardRequest(`http://gone.test:${port}/`)));
    expect(error.code).toBe('ERR_FETCH_FAILED');
    expect(error.message).toBe(
      `GET http://gone.test:${port}/: cannot resolve gone.test: getaddrinfo ENOTFOUND gone.test`,
    );
    await client.close();
  });

  it('is refused with a proxy or a dispatcher', () => {
    const addresses = createAddressBook();
    expect(() => createHttpClient({ addresses, proxy: 'http://127.0.0.4:3128', allowNet: ['127.0.0.4/32'] })).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_OPTION',
        message: expect.stringContaining('addresses cannot be used with proxy'),
      }),
    );
    const dispatcher = new Agent();
    expect(() => createHttpClient({ addresses, dispatcher })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_OPTION' }),
    );
    void dispatcher.close();
  });
});

describe('HttpRequest.connectAddress', () => {
  it('connects to exactly that address, with the URL’s Host, whatever the book says', async () => {
    const addresses = createAddressBook({ resolve: loopbackResolver().resolve });
    const client = createHttpClient({ addresses, blockPrivateNetworks: true, allowNet: ['127.0.0.0/8'] });
    try {
      expect((await addresses.address('a.test')).address).toBe('127.0.0.5');
      const response = await client.get({
        ...guardRequest(`http://a.test:${port}/pinned`),
        connectAddress: '127.0.0.6',
      });
      expect(text(response.body)).toBe('six');
      expect(servers.six.hosts.at(-1)).toBe(`a.test:${port}`);
      // A name no resolver knows: connectAddress needs none.
      expect(
        text((await client.get({ ...guardRequest(`http://nowhere.test:${port}/`), connectAddress: '127.0.0.5' })).body),
      ).toBe('five');
    } finally {
      await client.close();
    }
  });

  it('is judged by the guard: a blocked address is refused and never connected to', async () => {
    const client = createHttpClient({ blockPrivateNetworks: true, allowNet: ['127.0.0.5/32'] });
    const before = servers.six.connections;
    try {
      const error = await refusal(
        client.get({ ...guardRequest(`http://a.test:${port}/`), connectAddress: '127.0.0.6' }),
      );
      expect(error.code).toBe('ERR_ADDRESS_BLOCKED');
      expect(error.message).toContain('refused to connect to a.test: 127.0.0.6 is Loopback');
      expect(servers.six.connections).toBe(before);
      expect(
        text((await client.get({ ...guardRequest(`http://a.test:${port}/`), connectAddress: '127.0.0.5' })).body),
      ).toBe('five');
    } finally {
      await client.close();
    }
  });

  it('must be an IP address, and the URL’s own address for an IP-literal URL', async () => {
    const client = createHttpClient();
    try {
      const bad = await refusal(client.get({ ...guardRequest(`http://a.test:${port}/`), connectAddress: 'b.test' }));
      expect(bad.code).toBe('ERR_INVALID_INPUT');
      const same = await client.get({ ...guardRequest(`http://127.0.0.6:${port}/`), connectAddress: '127.0.0.6' });
      expect(text(same.body)).toBe('six');
      const other = await refusal(
        client.get({ ...guardRequest(`http://127.0.0.6:${port}/`), connectAddress: '127.0.0.5' }),
      );
      expect(other.code).toBe('ERR_INVALID_INPUT');
      expect(other.message).toContain("connectAddress 127.0.0.5 is not the URL's own address 127.0.0.6");
    } finally {
      await client.close();
    }
  });

  it('is refused with a proxy or a custom dispatcher', async () => {
    const dispatcher = new Agent();
    for (const client of [
      createHttpClient({ proxy: 'http://127.0.0.4:9', blockPrivateNetworks: true, allowNet: ['127.0.0.0/8'] }),
      createHttpClient({ dispatcher }),
    ]) {
      const error = await refusal(
        client.get({ ...guardRequest(`http://a.test:${port}/`), connectAddress: '127.0.0.5' }),
      );
      expect(error.code).toBe('ERR_INVALID_INPUT');
      expect(error.message).toContain('connectAddress needs connections the client opens itself');
      await client.close();
    }
    await dispatcher.close();
  });

  it('closes the least recently used address’s Agent beyond 256 addresses, and later requests still work', async () => {
    const client = createHttpClient({
      blockPrivateNetworks: true,
      allowNet: ['127.0.0.0/8'],
      connectTimeoutMs: 2000,
      keepAliveTimeoutMs: 60_000,
    });
    try {
      expect(
        text((await client.get({ ...guardRequest(`http://a.test:${port}/`), connectAddress: '127.0.0.6' })).body),
      ).toBe('six');
      await until(() => servers.six.sockets.size === 1); // kept alive
      // 256 other addresses where nothing listens (refused at once): 127.0.0.6's Agent is evicted.
      const others = Array.from({ length: 256 }, (_, i) => `127.1.${(i + 1) >> 8}.${(i + 1) & 0xff}`);
      for (let i = 0; i < others.length; i += 32) {
        const codes = await Promise.all(
          others.slice(i, i + 32).map((address) =>
            client.get({ ...guardRequest(`http://a.test:${port}/`), connectAddress: address }).then(
              () => 'reached',
              (error: PolitelyError) => error.code,
            ),
          ),
        );
        expect(codes.every((code) => code === 'ERR_FETCH_FAILED' || code === 'reached')).toBe(true);
      }
      await until(() => servers.six.sockets.size === 0); // its keep-alive connection closed
      expect(
        text((await client.get({ ...guardRequest(`http://a.test:${port}/`), connectAddress: '127.0.0.6' })).body),
      ).toBe('six');
    } finally {
      await client.close();
    }
  });

  it('client.close() closes every Agent, the main one and each address’s', async () => {
    const dns = loopbackResolver();
    const client = createHttpClient({
      addresses: createAddressBook({ resolve: dns.resolve }),
      blockPrivateNetworks: true,
      allowNet: ['127.0.0.0/8'],
      keepAliveTimeoutMs: 60_000,
    });
    await client.get(guardRequest(`http://a.test:${port}/`));
    await client.get({ ...guardRequest(`http://a.test:${port}/`), connectAddress: '127.0.0.6' });
    await until(() => servers.five.sockets.size === 1 && servers.six.sockets.size === 1);
    await client.close();
    await until(() => servers.five.sockets.size === 0 && servers.six.sockets.size === 0);
    const after = await refusal(client.get({ ...guardRequest(`http://a.test:${port}/`), connectAddress: '127.0.0.6' }));
    expect(after.code).toBe('ERR_FETCH_FAILED');
  });
});
