// Capture (`HttpRequest.capture`, for WARC archives): the client keeps the request head as written,
// the response head as received and the body before content decoding. A raw TCP server on
// loopback, so the test knows every byte on the wire both ways.

import { randomBytes } from 'node:crypto';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createHttpClient, exchangeOfError, type HttpExchange, type HttpRequest, PolitelyError } from '@politely/core';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackProxy } from '../../../../test/support/loopback-proxy.js';

/** Answers one request head on `socket` with raw bytes. */
type Route = (socket: Socket) => void;

const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

const GZIPPED = gzipSync('compressed hello, compressed hello, compressed hello');
const NOISE_GZIPPED = gzipSync(randomBytes(64 * 1024)); // random bytes do not compress: ~64 KB on the wire
const BIG = Buffer.alloc(10_000, 0x61);

const routes: Record<string, Route> = {
  '/head': (socket) =>
    socket.write(
      latin1(
        'HTTP/1.1 200 OK Then\r\nContent-Type: text/plain\r\nX-Dup: 1\r\nSet-Cookie: a=b; Path=/\r\nX-Dup: 2\r\nX-Latin: caf\xe9\r\nContent-Length: 5\r\n\r\nhello',
      ),
    ),
  '/chunked': (socket) => {
    socket.write(latin1('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'));
    socket.write(latin1('5\r\nhello\r\n'));
    socket.write(latin1('1\r\n \r\n'));
    socket.write(latin1('5\r\nworld\r\n0\r\n\r\n'));
  },
  '/gzip': (socket) => {
    socket.write(latin1(`HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: ${GZIPPED.length}\r\n\r\n`));
    socket.write(GZIPPED);
  },
  '/noise-gzip': (socket) => {
    socket.write(
      latin1(`HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: ${NOISE_GZIPPED.length}\r\n\r\n`),
    );
    socket.write(NOISE_GZIPPED);
  },
  '/big': (socket) => {
    socket.write(latin1(`HTTP/1.1 200 OK\r\nContent-Length: ${BIG.length}\r\n\r\n`));
    socket.write(BIG);
  },
  // Declares far more than any cap the tests set, then stalls: the client must not wait for it.
  '/declared-big': (socket) => socket.write(latin1('HTTP/1.1 200 OK\r\nContent-Length: 5000000\r\n\r\nx')),
  '/stall': (socket) => socket.write(latin1('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789')),
  '/cut': (socket) => {
    socket.write(latin1('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789'));
    setTimeout(() => socket.destroy(), 100);
  },
};

interface RawServer {
  readonly server: Server;
  /** Every request head received, bytes as latin1, the final empty line included, in order. */
  readonly heads: string[];
  connections: number;
  base: string;
}

/** A raw HTTP/1.1 server on `address`: records what it receives and answers from `routes`. */
async function startRawServer(address: string): Promise<RawServer> {
  const raw: RawServer = { server: createServer(), heads: [], connections: 0, base: '' };
  raw.server.on('connection', (socket: Socket) => {
    raw.connections++;
    openSockets.add(socket);
    socket.on('close', () => openSockets.delete(socket));
    socket.on('error', () => {});
    let pending = '';
    socket.on('data', (data: Buffer) => {
      pending += data.toString('latin1');
      // GETs have no body: a request ends with its head. Bounded by the heads the data holds.
      for (let end = pending.indexOf('\r\n\r\n'); end !== -1; end = pending.indexOf('\r\n\r\n')) {
        const head = pending.slice(0, end + 4);
        pending = pending.slice(end + 4);
        raw.heads.push(head);
        const path = head.split(' ')[1]!.split('?')[0]!;
        (routes[path] ?? ((s: Socket) => s.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n')))(socket);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    raw.server.once('error', reject);
    raw.server.listen(0, address, resolve);
  });
  raw.base = `http://${address}:${(raw.server.address() as AddressInfo).port}`;
  servers.push(raw.server);
  return raw;
}

const servers: Server[] = [];
const openSockets = new Set<Socket>();
let main: RawServer;
const client = createHttpClient();

beforeAll(async () => {
  main = await startRawServer('127.0.0.1');
});

afterAll(async () => {
  await client.close();
  for (const socket of openSockets) socket.destroy();
  await Promise.all(
    servers.filter((server) => server.listening).map((server) => new Promise((resolve) => server.close(resolve))),
  );
});

function request(url: string, extra: Partial<HttpRequest> = {}): HttpRequest {
  return {
    url,
    headers: { 'user-agent': 'politely-test/1.0 (+https://example.test/bot)' },
    timeoutMs: 5000,
    bodyLimit: { maxBytes: 1_000_000, atLimit: 'fail' },
    capture: true,
    ...extra,
  };
}

async function captured(url: string, extra: Partial<HttpRequest> = {}): Promise<HttpExchange> {
  const response = await client.get(request(url, extra));
  expect(response.exchange).toBeDefined();
  return response.exchange!;
}

/** The head the server received whose request line names `path` (exactly one). */
function headReceived(server: RawServer, path: string): string {
  const heads = server.heads.filter((head) => head.startsWith(`GET ${path} HTTP/1.1\r\n`));
  expect(heads).toHaveLength(1);
  return heads[0]!;
}

/** The error `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<PolitelyError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PolitelyError);
  return error as PolitelyError;
}

const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');

describe('capture: the request head', () => {
  it('is exactly the bytes the server received, from the request line to the empty line', async () => {
    const exchange = await captured(`${main.base}/head?which=exact`);
    const head = headReceived(main, '/head?which=exact');
    expect(exchange.requestHead).toBe(head);
    expect(head).toMatch(/^GET \/head\?which=exact HTTP\/1\.1\r\n/);
    expect(head).toContain(`host: ${main.base.slice('http://'.length)}\r\n`);
    expect(head).toContain('accept-encoding: gzip, deflate, br\r\n');
    expect(head).toContain('user-agent: politely-test/1.0 (+https://example.test/bot)\r\n');
    expect(head.endsWith('\r\n\r\n')).toBe(true);
  });

  it('records when it was sent and the address it went to', async () => {
    const before = Date.now();
    const exchange = await captured(`${main.base}/head?which=address`);
    expect(exchange.sentAt).toBeGreaterThanOrEqual(before);
    expect(exchange.sentAt).toBeLessThanOrEqual(Date.now());
    expect(exchange.remoteAddress).toBe('127.0.0.1');
  });

  it('goes to the pinned address with connectAddress, the Host header staying the name', async () => {
    const pinnedServer = await startRawServer('127.0.0.2');
    const port = new URL(pinnedServer.base).port;
    const exchange = await captured(`http://pinned.test:${port}/head?which=pinned`, { connectAddress: '127.0.0.2' });
    expect(exchange.remoteAddress).toBe('127.0.0.2');
    const head = headReceived(pinnedServer, '/head?which=pinned');
    expect(exchange.requestHead).toBe(head);
    expect(head).toContain(`host: pinned.test:${port}\r\n`);
  });

  it('is the tunnelled request through a proxy (not the CONNECT), with no remote address', async () => {
    const proxy = await startLoopbackProxy('127.0.0.4');
    const proxied = createHttpClient({ proxy: proxy.url });
    try {
      const exchange = (await proxied.get(request(`${main.base}/head?which=proxy`))).exchange!;
      expect(exchange.requestHead).toBe(headReceived(main, '/head?which=proxy'));
      expect(exchange.remoteAddress).toBeUndefined();
      expect(exchange.statusText).toBe('OK Then');
    } finally {
      await proxied.close();
      await proxy.close();
    }
    expect(proxy.log).toContainEqual({ method: 'CONNECT', target: new URL(main.base).host });
  });

  it('has no remote address through a custom dispatcher', async () => {
    const agent = new Agent();
    const custom = createHttpClient({ dispatcher: agent });
    try {
      const exchange = (await custom.get(request(`${main.base}/head?which=dispatcher`))).exchange!;
      expect(exchange.requestHead).toBe(headReceived(main, '/head?which=dispatcher'));
      expect(exchange.remoteAddress).toBeUndefined();
    } finally {
      await agent.close();
    }
  });

  it('is each request its own on a kept-alive connection', async () => {
    const server = await startRawServer('127.0.0.1');
    // One connection per origin: with more, the pool may open a second one for the second request.
    const single = createHttpClient({ connectionsPerOrigin: 1 });
    const first = (await single.get(request(`${server.base}/head?n=first`))).exchange!;
    const second = (await single.get(request(`${server.base}/head?n=second`))).exchange!;
    await single.close();
    expect(server.connections).toBe(1);
    expect(first.requestHead).toBe(headReceived(server, '/head?n=first'));
    expect(second.requestHead).toBe(headReceived(server, '/head?n=second'));
  });

  it('is each request its own when many run at once', async () => {
    const server = await startRawServer('127.0.0.1');
    const exchanges = await Promise.all(Array.from({ length: 10 }, (_, n) => captured(`${server.base}/head?n=${n}`)));
    exchanges.forEach((exchange, n) => {
      expect(exchange.requestHead.split('\r\n')[0]).toBe(`GET /head?n=${n} HTTP/1.1`);
      expect(exchange.requestHead).toBe(headReceived(server, `/head?n=${n}`));
    });
  });
});

describe('capture: the response', () => {
  it('keeps the status, the reason phrase and the header fields as received', async () => {
    const exchange = await captured(`${main.base}/head?which=response`);
    expect(exchange.status).toBe(200);
    expect(exchange.statusText).toBe('OK Then');
    expect(exchange.rawHeaders).toEqual([
      ['Content-Type', 'text/plain'],
      ['X-Dup', '1'],
      ['Set-Cookie', 'a=b; Path=/'],
      ['X-Dup', '2'],
      ['X-Latin', 'caf\u00e9'],
      ['Content-Length', '5'],
    ]);
    expect(text(exchange.payload)).toBe('hello');
    expect(exchange.truncated).toBeUndefined();
  });

  it('keeps a chunked body de-chunked, and its Transfer-Encoding field', async () => {
    const exchange = await captured(`${main.base}/chunked`);
    expect(text(exchange.payload)).toBe('hello world');
    expect(exchange.rawHeaders).toEqual([['Transfer-Encoding', 'chunked']]);
  });

  it('keeps a gzip body as sent while the response body is decoded', async () => {
    const response = await client.get(request(`${main.base}/gzip`));
    expect(new TextDecoder().decode(response.body)).toBe('compressed hello, compressed hello, compressed hello');
    expect(Buffer.from(response.exchange!.payload).equals(GZIPPED)).toBe(true);
  });

  it('is not there without capture', async () => {
    const response = await client.get(request(`${main.base}/head?which=plain`, { capture: false }));
    expect(response.exchange).toBeUndefined();
    const omitted = await client.get({
      url: `${main.base}/head?which=omitted`,
      headers: {},
      timeoutMs: 5000,
      bodyLimit: { maxBytes: 100, atLimit: 'fail' },
    });
    expect(omitted.exchange).toBeUndefined();
  });
});

describe('capture: a body cut short', () => {
  it('is a prefix of what was sent, truncated for length, at a truncating cap', async () => {
    const response = await client.get(
      request(`${main.base}/big`, { bodyLimit: { maxBytes: 1000, atLimit: 'truncate' } }),
    );
    expect(response.truncated).toBe(true);
    const exchange = response.exchange!;
    expect(exchange.truncated).toBe('length');
    expect(exchange.payload.length).toBe(1000);
    expect(Buffer.from(exchange.payload).equals(BIG.subarray(0, 1000))).toBe(true);
  });

  it('is a prefix of the encoded bytes sent when the decoded body meets the cap', async () => {
    const response = await client.get(
      request(`${main.base}/noise-gzip`, { bodyLimit: { maxBytes: 1000, atLimit: 'truncate' } }),
    );
    const exchange = response.exchange!;
    expect(exchange.truncated).toBe('length');
    expect(exchange.payload.length).toBeGreaterThan(0);
    expect(Buffer.from(exchange.payload).equals(NOISE_GZIPPED.subarray(0, exchange.payload.length))).toBe(true);
  });

  it('comes with the error when the declared length is over a failing cap, the body unread', async () => {
    const error = await failure(
      client.get(request(`${main.base}/declared-big`, { bodyLimit: { maxBytes: 1000, atLimit: 'fail' } })),
    );
    expect(error.code).toBe('ERR_BODY_TOO_LARGE');
    const exchange = exchangeOfError(error)!;
    expect(exchange).toBeDefined();
    expect(exchange.status).toBe(200);
    expect(exchange.rawHeaders).toEqual([['Content-Length', '5000000']]);
    expect(exchange.truncated).toBe('length');
    expect(exchange.payload.length).toBe(0);
    expect(exchange.requestHead).toBe(headReceived(main, '/declared-big'));
  });

  it('comes with the error when a body goes over a failing cap, up to the cap', async () => {
    // No declared length to refuse up front: the body (11 bytes) goes over the cap while read.
    const error = await failure(
      client.get(request(`${main.base}/chunked?over=cap`, { bodyLimit: { maxBytes: 4, atLimit: 'fail' } })),
    );
    expect(error.code).toBe('ERR_BODY_TOO_LARGE');
    const exchange = exchangeOfError(error)!;
    expect(exchange.truncated).toBe('length');
    expect(text(exchange.payload)).toBe('hell');
  });

  it('comes with the error, truncated for time, when the deadline passes mid-body', async () => {
    const error = await failure(client.get(request(`${main.base}/stall`, { timeoutMs: 400 })));
    expect(error.code).toBe('ERR_TIMEOUT');
    const exchange = exchangeOfError(error)!;
    expect(exchange.truncated).toBe('time');
    expect(exchange.status).toBe(200);
    expect(text(exchange.payload)).toBe('0123456789');
  });

  it('comes with the error, truncated for disconnect, when the connection breaks mid-body', async () => {
    const error = await failure(client.get(request(`${main.base}/cut`)));
    expect(error.code).toBe('ERR_FETCH_FAILED');
    const exchange = exchangeOfError(error)!;
    expect(exchange.truncated).toBe('disconnect');
    expect(text(exchange.payload)).toBe('0123456789');
    expect(exchange.rawHeaders).toEqual([['Content-Length', '100']]);
  });

  it('is not there for a failure before the response head', async () => {
    const closed = await startRawServer('127.0.0.1');
    const url = `${closed.base}/head`;
    await new Promise((resolve) => closed.server.close(resolve));
    const error = await failure(client.get(request(url)));
    expect(error.code).toBe('ERR_FETCH_FAILED');
    expect(exchangeOfError(error)).toBeUndefined();
    expect(exchangeOfError('not an error')).toBeUndefined();
    expect(exchangeOfError(undefined)).toBeUndefined();
  });
});
