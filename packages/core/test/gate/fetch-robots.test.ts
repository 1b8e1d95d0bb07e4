import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { createUndiciRobotsFetch, type RobotsFetchRequest, type UndiciRobotsFetch } from '@politely/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rejection } from '../../../../test/support/rejection.js';
import { startServer, type TestServer } from '../../../../test/support/robots-server.js';

const KiB = 1024;
let server: TestServer;
let fetchRobots: UndiciRobotsFetch;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await fetchRobots.close();
  server.reset();
});

function request(path = '/robots.txt', fields: Partial<RobotsFetchRequest> = {}): RobotsFetchRequest {
  return {
    url: server.origin + path,
    userAgent: 'TestBot/1.0',
    signal: new AbortController().signal,
    maxBytes: 500 * KiB,
    ...fields,
  };
}

describe('createUndiciRobotsFetch', () => {
  it('returns status, headers and body, and sends the User-Agent and accept-encoding', async () => {
    fetchRobots = createUndiciRobotsFetch();
    server.handle = (_req, res) =>
      res.writeHead(200, { 'cache-control': 'max-age=60', 'x-two': ['a', 'b'] }).end('User-agent: *\n');
    const response = await fetchRobots(request());
    expect(response.status).toBe(200);
    expect(response.header('Cache-Control')).toBe('max-age=60');
    expect(response.header('x-two')).toBe('a, b');
    expect(new TextDecoder().decode(response.body)).toBe('User-agent: *\n');
    expect(response.truncatedAtCap).toBe(false);
    expect(server.requests[0]?.headers['user-agent']).toBe('TestBot/1.0');
    expect(server.requests[0]?.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('never follows a redirect', async () => {
    fetchRobots = createUndiciRobotsFetch();
    server.handle = (_req, res) => res.writeHead(301, { location: '/elsewhere' }).end();
    const response = await fetchRobots(request());
    expect(response.status).toBe(301);
    expect(response.header('location')).toBe('/elsewhere');
    expect(server.hits()).toBe(1);
  });

  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('decompresses %s', async (encoding, compress) => {
    fetchRobots = createUndiciRobotsFetch();
    const text = 'User-agent: *\nDisallow: /zipped\n'.repeat(100);
    server.handle = (_req, res) => res.writeHead(200, { 'content-encoding': encoding }).end(compress(text));
    const response = await fetchRobots(request());
    expect(new TextDecoder().decode(response.body)).toBe(text);
  });

  it('rejects a content-encoding it cannot decode', async () => {
    fetchRobots = createUndiciRobotsFetch();
    server.handle = (_req, res) => res.writeHead(200, { 'content-encoding': 'zstd' }).end('????');
    expect((await rejection(fetchRobots(request()))).code).toBe('ERR_FETCH_FAILED');
  });

  it('rfc9309 2.5: stops reading at maxBytes and says so, without failing', async () => {
    fetchRobots = createUndiciRobotsFetch();
    let written = 0;
    let closed = false;
    const limit = 64 * 1024 * KiB;
    server.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.on('close', () => (closed = true));
      const chunk = Buffer.alloc(64 * KiB, 'a');
      const pump = (): void => {
        while (!closed && written < limit) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!closed) res.end();
      };
      pump();
    };
    const response = await fetchRobots(request('/robots.txt', { maxBytes: 500 * KiB }));
    expect(response.body.length).toBe(500 * KiB);
    expect(response.truncatedAtCap).toBe(true);
    await expect.poll(() => closed, { timeout: 5000 }).toBe(true);
    expect(written).toBeLessThan(limit / 2);
  });

  it('rfc9309 2.5: caps the decompressed bytes, so a gzip bomb stops at the cap', async () => {
    fetchRobots = createUndiciRobotsFetch();
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * KiB, 0x61), { level: 1 }); // 64 MiB of "a" in ~64 KiB
    server.handle = (_req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(bomb);
    const response = await fetchRobots(request('/robots.txt', { maxBytes: 500 * KiB }));
    expect(response.body.length).toBe(500 * KiB);
    expect(response.truncatedAtCap).toBe(true);
  });

  it('rejects a body that ends before its Content-Length', async () => {
    fetchRobots = createUndiciRobotsFetch();
    server.handle = (req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('User-agent: *\n', () => req.socket.destroy());
    };
    expect((await rejection(fetchRobots(request()))).code).toBe('ERR_FETCH_FAILED');
  });

  it('rejects a chunked body that ends before its last chunk', async () => {
    fetchRobots = createUndiciRobotsFetch();
    server.handle = (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('User-agent: *\nDisallow: /\n', () => setTimeout(() => req.socket.destroy(), 20));
    };
    expect((await rejection(fetchRobots(request()))).code).toBe('ERR_FETCH_FAILED');
  });

  it('rejects a connection reset', async () => {
    fetchRobots = createUndiciRobotsFetch();
    server.handle = (req) => req.socket.destroy();
    expect((await rejection(fetchRobots(request()))).code).toBe('ERR_FETCH_FAILED');
  });

  it('rejects with ERR_TIMEOUT when the body stalls past the deadline', async () => {
    fetchRobots = createUndiciRobotsFetch({ timeoutMs: 300 });
    server.handle = (_req, res) => {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('User-agent: *\n'); // and never the rest
    };
    const started = Date.now();
    expect((await rejection(fetchRobots(request()))).code).toBe('ERR_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('rejects with ERR_TIMEOUT when the headers never come', async () => {
    fetchRobots = createUndiciRobotsFetch({ timeoutMs: 300 });
    server.handle = () => {};
    expect((await rejection(fetchRobots(request()))).code).toBe('ERR_TIMEOUT');
  });

  it('rejects with ERR_ABORTED when the caller aborts', async () => {
    fetchRobots = createUndiciRobotsFetch();
    server.handle = () => {};
    const controller = new AbortController();
    const pending = fetchRobots(request('/robots.txt', { signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    expect((await rejection(pending)).code).toBe('ERR_ABORTED');
  });

  it('rejects a refused connection', async () => {
    fetchRobots = createUndiciRobotsFetch();
    const closed = await startServer();
    await closed.close();
    expect((await rejection(fetchRobots(request('/robots.txt', { url: `${closed.origin}/robots.txt` })))).code).toBe(
      'ERR_FETCH_FAILED',
    );
  });
});
