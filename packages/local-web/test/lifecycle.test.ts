import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { LocalWebError, startDemoWeb, startFleet } from '../src/index.js';
import { listenError } from '../src/listen.js';
import { rawGet } from './helpers.js';

function listenNet(host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host, port }, () => resolve(server));
  });
}

function closeNet(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('close', () => {
  it('releases every port: the same web starts again on the same port', async () => {
    const first = await startDemoWeb({ firstAddress: 100 });
    const port = first.hosts[0]?.port ?? 0;
    await rawGet(`${first.entryUrl}`); // leaves a keep-alive connection behind
    await first.close();
    await expect(rawGet(first.entryUrl)).rejects.toThrow();
    const second = await startDemoWeb({ firstAddress: 100, port });
    try {
      expect(second.hosts.every((host) => host.port === port)).toBe(true);
      expect((await rawGet(second.entryUrl)).status).toBe(200);
    } finally {
      await second.close();
    }
    const third = await startDemoWeb({ firstAddress: 100, port });
    await third.close();
    await third.close(); // idempotent
  });
});

describe('bind errors', () => {
  it('names the address that is taken, and leaves no other host bound', async () => {
    const probe = await startFleet({ hosts: 1, pagesPerHost: 1, firstAddress: 120 });
    const port = probe.hosts[0]?.port ?? 0;
    await probe.close();
    const squatter = await listenNet('127.0.0.122', port);
    try {
      const error = await startFleet({ hosts: 4, pagesPerHost: 1, firstAddress: 120, port }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LocalWebError);
      expect((error as LocalWebError).code).toBe('ERR_ADDRESS_IN_USE');
      expect((error as LocalWebError).message).toContain(`127.0.0.122:${port}`);
    } finally {
      await closeNet(squatter);
    }
    const again = await startFleet({ hosts: 4, pagesPerHost: 1, firstAddress: 120, port });
    await again.close();
  });

  it('starts with port 0 beside a server that holds an earlier port on one of its addresses', async () => {
    const web = await startFleet({ hosts: 3, pagesPerHost: 1, firstAddress: 140 });
    const port = web.hosts[0]?.port ?? 0;
    await web.close();
    const squatter = await listenNet('127.0.0.141', port);
    try {
      const next = await startFleet({ hosts: 3, pagesPerHost: 1, firstAddress: 140 });
      expect((await rawGet(`${next.hosts[1]?.origin ?? ''}/`)).status).toBe(200);
      await next.close();
    } finally {
      await closeNet(squatter);
    }
  });

  it('explains an address that is not configured (as on macOS)', () => {
    const cause = Object.assign(new Error('listen EADDRNOTAVAIL'), { code: 'EADDRNOTAVAIL' });
    const error = listenError(cause, '127.0.0.7', 8080);
    expect(error.code).toBe('ERR_ADDRESS_NOT_AVAILABLE');
    expect(error.message).toContain('127.0.0.7:8080');
    expect(error.message).toContain('ifconfig lo0 alias 127.0.0.7');
    expect(error.cause).toBe(cause);
  });

  it('refuses addresses outside 127.0.0.2–254', async () => {
    await expect(startDemoWeb({ firstAddress: 250 })).rejects.toMatchObject({ code: 'ERR_INVALID_OPTION' });
    await expect(startDemoWeb({ firstAddress: 1 })).rejects.toMatchObject({ code: 'ERR_INVALID_OPTION' });
  });
});
