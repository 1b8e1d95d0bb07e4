import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAddressPolicy, createHttpClient, parseCidr } from '@politely/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardRequest, refusal } from './guard-helpers.js';

let server: Server;
let port: number;
let hits = 0;
beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++;
    res.end('reached');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('createAddressPolicy', () => {
  const policy = createAddressPolicy([]);
  it('refuses loopback, private, link-local, unique-local and unspecified addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '100.64.0.1',
    ]) {
      expect(policy.allows(address), address).toBe(false);
    }
  });
  it('allows public addresses', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '172.32.0.1'])
      expect(policy.allows(address), address).toBe(true);
  });
  it('lets an allow-list open private networks', () => {
    const open = createAddressPolicy(['127.0.0.0/8', '10.0.0.5']);
    expect(open.allows('127.0.0.42')).toBe(true);
    expect(open.allows('10.0.0.5')).toBe(true);
    expect(open.allows('10.0.0.6')).toBe(false);
  });
});

describe('parseCidr', () => {
  it('reads CIDRs and single addresses, and names a bad one', () => {
    expect(parseCidr('127.0.0.0/8')).toEqual({ address: '127.0.0.0', prefix: 8, family: 'ipv4' });
    expect(parseCidr('::1')).toEqual({ address: '::1', prefix: 128, family: 'ipv6' });
    expect(() => parseCidr('300.0.0.0/8')).toThrowError(/invalid network '300.0.0.0\/8'/);
    expect(() => parseCidr('10.0.0.0/33')).toThrowError(/prefix/);
  });
});

describe('createHttpClient with blockPrivateNetworks', () => {
  it('refuses an IP literal on loopback before connecting', async () => {
    const client = createHttpClient({ blockPrivateNetworks: true });
    const before = hits;
    const error = await refusal(client.get(guardRequest(`http://127.0.0.1:${port}/`)));
    expect(error.code).toBe('ERR_ADDRESS_BLOCKED');
    expect(error.message).toContain('127.0.0.1');
    expect(hits).toBe(before);
    await client.close();
  });

  it('refuses a name that resolves to loopback (checked after DNS)', async () => {
    const client = createHttpClient({ blockPrivateNetworks: true });
    const before = hits;
    const error = await refusal(client.get(guardRequest(`http://localhost:${port}/`)));
    expect(error.code).toBe('ERR_ADDRESS_BLOCKED');
    expect(hits).toBe(before);
    await client.close();
  });

  it('connects when the network is allowed, by literal and by name', async () => {
    const client = createHttpClient({ blockPrivateNetworks: true, allowNet: ['127.0.0.0/8', '::1'] });
    expect((await client.get(guardRequest(`http://127.0.0.1:${port}/`))).status).toBe(200);
    expect((await client.get(guardRequest(`http://localhost:${port}/`))).status).toBe(200);
    await client.close();
  });

  it('refuses the cloud metadata address', async () => {
    const client = createHttpClient({ blockPrivateNetworks: true, allowNet: ['127.0.0.0/8'] });
    expect((await refusal(client.get(guardRequest('http://169.254.169.254/latest/meta-data/')))).code).toBe(
      'ERR_ADDRESS_BLOCKED',
    );
    await client.close();
  });
});
