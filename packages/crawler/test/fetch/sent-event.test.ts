// The `sent` event: a request whose head was written to a socket, and when. Judged against a real
// server's log: every request the server saw has one, and an attempt that never reached a server
// (a refused connection, an address the SSRF guard refuses) has none.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpClient, type HttpClient } from '@politely/core';
import { createCrawler, type RequestEvent, type SentEvent } from '@politely/crawler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const UA = 'SentBot/1.0';

/** A port on 127.0.0.2 where nothing listens: bound once, then closed. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.2', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

interface Seen {
  readonly requests: RequestEvent[];
  readonly sent: SentEvent[];
  readonly answeredAt: Map<string, number>;
}

describe('the sent event', () => {
  let server: Server;
  let origin: string;
  let refused: string;
  const arrived: string[] = [];

  beforeAll(async () => {
    refused = `http://127.0.0.2:${await closedPort()}`;
    server = createServer((req, res) => {
      arrived.push(`${origin}${req.url ?? ''}`);
      if (req.url === '/robots.txt') return void res.writeHead(200).end('User-agent: *\nAllow: /\n');
      const links =
        req.url === '/' ? `<a href="/next">n</a> <a href="${refused}/x">x</a> <a href="http://127.0.0.9/y">y</a>` : '';
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${links}</body></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function crawl(httpClient?: HttpClient): Promise<Seen> {
    arrived.length = 0;
    const crawler = createCrawler({
      userAgent: UA,
      seeds: [`${origin}/`],
      scope: 'any',
      minDelayMs: 0,
      maxRetries: 0,
      maxRobotsRetries: 0,
      // The guard is the client's: a given client brings its own.
      ...(httpClient === undefined ? { allowNet: ['127.0.0.1', '127.0.0.2'] } : { httpClient }),
    });
    const seen: Seen = { requests: [], sent: [], answeredAt: new Map() };
    crawler.on('request', (event) => seen.requests.push(event));
    crawler.on('sent', (event) => seen.sent.push(event));
    crawler.on('response', (event) => seen.answeredAt.set(event.url, Date.now()));
    crawler.gate.on('fetch', (event) => seen.answeredAt.set(event.url, Date.now()));
    await crawler.run();
    return seen;
  }

  it('tells each request that reached the server, once, between its start and its answer', async () => {
    const seen = await crawl();
    expect(seen.sent.map((event) => event.url).sort()).toEqual([...arrived].sort());
    for (const event of seen.sent) {
      const started = seen.requests.find((request) => request.url === event.url);
      expect(started?.at).toBeLessThanOrEqual(event.at);
      expect(event.at).toBeLessThanOrEqual(seen.answeredAt.get(event.url) ?? -1);
    }
  });

  it('is not told for attempts that failed before: a refused connection, an address the guard refuses', async () => {
    const seen = await crawl();
    const failed = seen.requests.filter((request) => !request.url.startsWith(origin)).map((request) => request.url);
    expect(failed.sort()).toEqual([`${refused}/robots.txt`, 'http://127.0.0.9/robots.txt']);
    expect(seen.sent.filter((event) => failed.includes(event.url))).toEqual([]);
  });

  it('counts an answered request of a client that never calls onSent as sent at its start', async () => {
    const real = createHttpClient({ blockPrivateNetworks: true, allowNet: ['127.0.0.1', '127.0.0.2'] });
    const silent: HttpClient = {
      get: ({ onSent: _ignored, ...request }) => real.get(request),
      close: () => real.close(),
    };
    try {
      const seen = await crawl(silent);
      expect(seen.sent.map((event) => event.url).sort()).toEqual([...arrived].sort());
      for (const event of seen.sent) {
        const started = seen.requests.find((request) => request.url === event.url);
        expect(event.at - (started?.at ?? 0)).toBeGreaterThanOrEqual(0);
        expect(event.at - (started?.at ?? 0)).toBeLessThan(1000);
      }
    } finally {
      await real.close();
    }
  });
});
