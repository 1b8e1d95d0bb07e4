import { getEventListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { createHttpClient, type HttpRequest, PolitelyError } from '@politely/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Route = (req: IncomingMessage, res: ServerResponse) => void;
const routes = new Map<string, Route>();
const seenUserAgents: string[] = [];
let server: Server;
let base: string;

routes.set('/ok', (_req, res) => {
  res.setHeader('x-test', ['a', 'b']);
  res.end('hello');
});
routes.set('/no-coding', (_req, res) => {
  res.writeHead(200, { 'content-encoding': '' });
  res.end('plain hello');
});
routes.set('/identity', (_req, res) => {
  res.writeHead(200, { 'content-encoding': ' Identity ' });
  res.end('identity hello');
});
routes.set('/gzip', (_req, res) => {
  res.writeHead(200, { 'content-encoding': 'gzip' });
  res.end(gzipSync('compressed hello'));
});
routes.set('/br', (_req, res) => {
  res.writeHead(200, { 'content-encoding': 'br' });
  res.end(brotliCompressSync('brotli hello'));
});
routes.set('/bomb', (_req, res) => {
  res.writeHead(200, { 'content-encoding': 'gzip' });
  res.end(gzipSync(Buffer.alloc(50 * 1024 * 1024))); // 50 MB of zeros, ~50 KB on the wire
});
// A gzip stream that never ends and never decodes to anything: a header, then empty stored
// blocks (5 bytes each) for as long as the client reads. Only a cap on received bytes stops it.
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03]);
const EMPTY_STORED_BLOCKS = Buffer.concat(
  Array.from({ length: 3277 }, () => Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff])),
);
let emptyBlockBytesSent = 0;
routes.set('/empty-blocks', (_req, res) => {
  res.writeHead(200, { 'content-encoding': 'gzip' });
  res.write(GZIP_HEADER);
  const pump = (): void => {
    // Bounded: 4,000 writes of 16 KB (64 MB) at most, far past any limit the tests set.
    for (let i = 0; i < 4000 && !res.destroyed; i++) {
      emptyBlockBytesSent += EMPTY_STORED_BLOCKS.length;
      if (!res.write(EMPTY_STORED_BLOCKS)) return void res.once('drain', pump);
    }
  };
  pump();
});
routes.set('/big', (_req, res) => res.end(Buffer.alloc(300_000, 0x61)));
routes.set('/declared-big', (_req, res) => {
  res.writeHead(200, { 'content-length': String(5_000_000) });
  res.write('x'); // never finishes: the client must not wait for the rest
});
routes.set('/trickle', (_req, res) => {
  res.writeHead(200);
  const timer = setInterval(() => res.write('.'), 50);
  res.on('close', () => clearInterval(timer));
});
routes.set('/reset', (req) => req.socket.destroy());
routes.set('/not-http', (req) => req.socket.end('HTTP/1.1 ABC nonsense\r\n\r\n'));
routes.set('/huge-header', (_req, res) => {
  res.setHeader('x-big', 'y'.repeat(100_000));
  res.end('never');
});

const request = (path: string, extra: Partial<HttpRequest> = {}): HttpRequest => ({
  url: base + path,
  headers: { 'user-agent': 'TestBot/1.0' },
  timeoutMs: 2000,
  bodyLimit: { maxBytes: 100_000, atLimit: 'fail' },
  ...extra,
});

const client = createHttpClient({ maxHeaderBytes: 16_384 });

beforeAll(async () => {
  server = createServer((req, res) => {
    seenUserAgents.push(String(req.headers['user-agent']));
    (routes.get(req.url ?? '') ?? ((_q, r) => ((r.statusCode = 404), r.end())))(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function failure(promise: Promise<unknown>): Promise<PolitelyError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PolitelyError);
  return error as PolitelyError;
}

describe('createHttpClient', () => {
  it('returns status, headers and body, and sends the user agent', async () => {
    const response = await client.get(request('/ok'));
    expect(response.status).toBe(200);
    expect(new TextDecoder().decode(response.body)).toBe('hello');
    expect(response.header('X-Test')).toBe('a, b');
    expect(response.headers['x-test']).toBe('a, b');
    expect(response.headerValues('X-Test')).toEqual(['a', 'b']);
    expect(response).not.toHaveProperty('exchange'); // only a captured request has one
    expect(seenUserAgents).toContain('TestBot/1.0');
  });

  it('returns 4xx statuses as responses, not errors', async () => {
    expect((await client.get(request('/missing'))).status).toBe(404);
  });

  it('reads a body with an empty or identity content-encoding as it is', async () => {
    const decode = async (path: string) => new TextDecoder().decode((await client.get(request(path))).body);
    expect(await decode('/no-coding')).toBe('plain hello');
    expect(await decode('/identity')).toBe('identity hello');
  });

  it('decodes gzip and brotli', async () => {
    expect(new TextDecoder().decode((await client.get(request('/gzip'))).body)).toBe('compressed hello');
    expect(new TextDecoder().decode((await client.get(request('/br'))).body)).toBe('brotli hello');
  });

  it('stops a gzip bomb at the decoded cap', async () => {
    const error = await failure(client.get(request('/bomb')));
    expect(error.code).toBe('ERR_BODY_TOO_LARGE');
    const truncated = await client.get(request('/bomb', { bodyLimit: { maxBytes: 1000, atLimit: 'truncate' } }));
    expect(truncated.body).toHaveLength(1000);
    expect(truncated.truncated).toBe(true);
  });

  it('caps the received bytes of an encoded body that decodes to nothing', async () => {
    emptyBlockBytesSent = 0;
    const error = await failure(client.get(request('/empty-blocks', { timeoutMs: 10_000 })));
    expect(error.code).toBe('ERR_BODY_TOO_LARGE');
    expect(error.message).toContain('/empty-blocks');
    expect(error.message).toContain('encoded body larger than');
    // Stopped near the limit, not at the server's 64 MB (the rest is what socket buffers held).
    expect(emptyBlockBytesSent).toBeLessThan(30_000_000);
    const truncated = await client.get(
      request('/empty-blocks', { timeoutMs: 10_000, bodyLimit: { maxBytes: 50_000, atLimit: 'truncate' } }),
    );
    expect(truncated.truncated).toBe(true);
    expect(truncated.body).toHaveLength(0);
  });

  it('fails past the body limit, or keeps the first bytes when told to truncate', async () => {
    expect((await failure(client.get(request('/big')))).code).toBe('ERR_BODY_TOO_LARGE');
    const cut = await client.get(request('/big', { bodyLimit: { maxBytes: 1024, atLimit: 'truncate' } }));
    expect(cut.body).toHaveLength(1024);
  });

  it('refuses a declared Content-Length over the limit without reading the body', async () => {
    const error = await failure(client.get(request('/declared-big', { timeoutMs: 5000 })));
    expect(error.code).toBe('ERR_BODY_TOO_LARGE');
    expect(error.message).toContain('/declared-big');
  });

  it('cuts off a server that trickles its body past the deadline', async () => {
    const error = await failure(client.get(request('/trickle', { timeoutMs: 300 })));
    expect(error.code).toBe('ERR_TIMEOUT');
  });

  it('reports a reset connection as a fetch failure naming the URL', async () => {
    const error = await failure(client.get(request('/reset')));
    expect(error.code).toBe('ERR_FETCH_FAILED');
    expect(error.message).toContain(`${base}/reset`);
  });

  it('reports an answer that is not HTTP as a protocol error, apart from network failures', async () => {
    const error = await failure(client.get(request('/not-http')));
    expect(error.code).toBe('ERR_PROTOCOL');
    expect(error.message).toContain(`${base}/not-http`);
  });

  it('refuses response heads over the header limit', async () => {
    expect((await failure(client.get(request('/huge-header')))).code).toBe('ERR_HEADERS_TOO_LARGE');
  });

  it('honours an AbortSignal', async () => {
    const controller = new AbortController();
    const pending = client.get(request('/trickle', { signal: controller.signal, timeoutMs: 10_000 }));
    setTimeout(() => controller.abort(), 50);
    expect((await failure(pending)).code).toBe('ERR_ABORTED');
  });

  it('adds one listener to a shared signal however many requests watch it, and every one aborts', async () => {
    // A crawl's signal is watched by every request in flight: a listener each would churn the
    // signal's listener list (see abort-watch.ts).
    const controller = new AbortController();
    const pending = Array.from({ length: 8 }, () =>
      failure(client.get(request('/trickle', { signal: controller.signal, timeoutMs: 10_000 }))),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort();
    for (const error of await Promise.all(pending)) expect(error.code).toBe('ERR_ABORTED');
  });
});
