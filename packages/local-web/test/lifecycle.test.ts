import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { LocalWebError, startFleet } from '../src/index.js';
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
});
