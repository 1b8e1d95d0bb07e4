// The client through one egress proxy: targets are reached through CONNECT tunnels, the SSRF guard
// still judges every target (before the proxy is asked), and a proxy on a private network must
// be allowed explicitly.

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpClient, PolitelyError } from '@politely/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackProxy, startLoopbackProxy } from '../../../../test/support/loopback-proxy.js';
import { guardRequest, refusal } from './guard-helpers.js';

let proxy: LoopbackProxy;
let target: Server;
let targetUrl: string;
const seen: { path: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  // The proxy and the target on different loopback addresses, so allowNet can tell them apart.
  proxy = await startLoopbackProxy('127.0.0.4');
  target = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    res.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/']);
    res.end('through');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.2', resolve));
  targetUrl = `http://127.0.0.2:${(target.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await proxy.close();
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
});

describe('createHttpClient({ proxy })', () => {
  it('reaches an allowed target through the proxy, with the request headers, and every Set-Cookie apart', async () => {
    const client = createHttpClient({
      proxy: proxy.url,
      blockPrivateNetworks: true,
      allowNet: ['127.0.0.4/32', '127.0.0.2/32'],
    });
    try {
      const response = await client.get({
        ...guardRequest(`${targetUrl}/via-proxy`),
        headers: { 'user-agent': 'GuardTest/1.0', from: 'ops@example.com' },
      });
      expect(response.status).toBe(200);
      expect(new TextDecoder().decode(response.body)).toBe('through');
      expect(response.headerValues('Set-Cookie')).toEqual(['a=1; Path=/', 'b=2; Path=/']);
      expect(response.headerValues('x-absent')).toEqual([]);
    } finally {
      await client.close();
    }
    expect(proxy.log).toContainEqual({ method: 'CONNECT', target: new URL(targetUrl).host });
    expect(seen.find((r) => r.path === '/via-proxy')?.headers).toMatchObject({
      'user-agent': 'GuardTest/1.0',
      from: 'ops@example.com',
    });
  });

  it('refuses a private target not in allowNet before the proxy is asked, by address and by name', async () => {
    const client = createHttpClient({ proxy: proxy.url, blockPrivateNetworks: true, allowNet: ['127.0.0.4/32'] });
    const before = proxy.log.length;
    try {
      const byAddress = await refusal(client.get(guardRequest(`${targetUrl}/private`)));
      expect(byAddress.code).toBe('ERR_ADDRESS_BLOCKED');
      expect(byAddress.message).toContain('127.0.0.2');
      // localhost resolves to 127.0.0.1 (and perhaps ::1): the client resolves it, the proxy never does.
      const byName = await refusal(client.get(guardRequest('http://localhost:9/private')));
      expect(byName.code).toBe('ERR_ADDRESS_BLOCKED');
      const metadata = await refusal(client.get(guardRequest('http://169.254.169.254/latest/meta-data/')));
      expect(metadata.code).toBe('ERR_ADDRESS_BLOCKED');
    } finally {
      await client.close();
    }
    expect(proxy.log.slice(before)).toEqual([]);
    expect(seen.some((r) => r.path === '/private')).toBe(false);
  });

  it('refuses a private proxy given as an address unless allowNet allows it, saying so', () => {
    let error: unknown;
    try {
      createHttpClient({ proxy: proxy.url, blockPrivateNetworks: true, allowNet: ['127.0.0.2/32'] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PolitelyError);
    expect((error as PolitelyError).code).toBe('ERR_INVALID_OPTION');
    expect((error as PolitelyError).message).toContain(`proxy ${proxy.url}: 127.0.0.4 is Loopback`);
    expect((error as PolitelyError).message).toContain('allowNet');
  });

  it('refuses a private proxy given by name when it connects, naming the proxy', async () => {
    const client = createHttpClient({
      proxy: `http://localhost:${proxy.port}`,
      blockPrivateNetworks: true,
      allowNet: ['127.0.0.2/32'],
    });
    try {
      const error = await refusal(client.get(guardRequest(`${targetUrl}/by-name`)));
      expect(error.code).toBe('ERR_ADDRESS_BLOCKED');
      expect(error.message).toContain(`proxy http://localhost:${proxy.port}`);
    } finally {
      await client.close();
    }
  });

  it('refuses a proxy URL that is not http://host:port, masking a password', () => {
    for (const bad of [
      'socks5://127.0.0.1:1080',
      'https://proxy.example:3128',
      'proxy.example:3128',
      'http://proxy.example:3128/path',
    ]) {
      expect(() => createHttpClient({ proxy: bad })).toThrow(/createHttpClient: proxy must be/);
    }
    expect(() => createHttpClient({ proxy: 'ftp://user:secret@proxy.example' })).toThrow(/user:\*\*\*@/);
    expect(() => createHttpClient({ proxy: 'ftp://user:secret@proxy.example' })).not.toThrow(/secret/);
  });
});
