// `politenessKey`: which requests share one clock, judged by the server's own log. Many names
// served by one loopback server (an injected resolver maps them all to 127.0.0.1): keyed by
// address, the server never sees two requests closer than the delay; keyed by domain,
// a.example.test and b.example.test share a clock and example.org has its own; keyed by host
// (the default), every name has its own clock, which the server sees as a crowd.

import type { HostResolver } from '@politely/core';
import {
  type CrawlerOptions,
  type CrawlStats,
  createCrawler,
  type RequestEvent,
  type SkipEvent,
} from '@politely/crawler';
import { afterEach, describe, expect, it } from 'vitest';
import { type LoggedRequest, startServer, type TestServer } from '../../../../test/support/site-server.js';
import { expectInvalidOption } from '../expect-invalid-option.js';

const UA = 'KeyBot/1.0 (+https://example.com/bot)';
const servers: TestServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** One server for every name: each name's home page links to /p1 and /p2; robots.txt by name. */
async function sharedServer(crawlDelayOf: (host: string) => number | undefined = () => undefined): Promise<TestServer> {
  const page = (body: string) => `<html><body>${body}</body></html>`;
  const server = await startServer({
    '/': page('<a href="/p1">1</a> <a href="/p2">2</a>'),
    '/p1': page('one'),
    '/p2': page('two'),
    '/robots.txt': (req, res) => {
      const delay = crawlDelayOf((req.headers.host ?? '').replace(/:\d+$/, ''));
      res.setHeader('content-type', 'text/plain');
      res.end(`User-agent: *\nAllow: /\n${delay === undefined ? '' : `Crawl-delay: ${delay}\n`}`);
    },
  });
  servers.push(server);
  return server;
}

/** Every name in `names` answers 127.0.0.1 (with a DNS TTL of a minute); others do not exist. */
const loopbackResolver =
  (names: readonly string[]): HostResolver =>
  async (hostname) => {
    if (!names.includes(hostname))
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address: '127.0.0.1', family: 4, ttlSeconds: 60 }];
  };

const hostOf = (entry: LoggedRequest): string => String(entry.headers.host).replace(/:\d+$/, '');

/** The smallest gap (ms, by the server's clock) between consecutive requests among `entries`. */
function smallestGap(entries: readonly LoggedRequest[]): number {
  let smallest = Infinity;
  for (let i = 1; i < entries.length; i++) smallest = Math.min(smallest, entries[i]!.at - entries[i - 1]!.at);
  return smallest;
}

interface Crawled {
  readonly stats: CrawlStats;
  readonly requests: RequestEvent[];
  readonly skips: SkipEvent[];
}

async function crawl(server: TestServer, names: readonly string[], options: Partial<CrawlerOptions>): Promise<Crawled> {
  const port = new URL(server.base).port;
  const requests: RequestEvent[] = [];
  const skips: SkipEvent[] = [];
  const crawler = createCrawler({
    userAgent: UA,
    seeds: names.map((name) => `http://${name}:${port}/`),
    scope: 'any',
    allowNet: ['127.0.0.0/8'],
    resolver: loopbackResolver(names),
    concurrency: 16,
    maxRetries: 0,
    ...options,
  });
  crawler.on('request', (event) => requests.push(event));
  crawler.on('skip', (event) => skips.push(event));
  return { stats: await crawler.run(), requests, skips };
}

const DELAY = 60;
const NAMES = Array.from({ length: 20 }, (_, i) => `site-${i}.shared.test`);

describe('politenessKey', () => {
  it("'ip': twenty names on one server are one key: the server never sees two requests closer than the delay", async () => {
    const server = await sharedServer();
    const { stats, requests } = await crawl(server, NAMES, { politenessKey: 'ip', minDelayMs: DELAY });
    // Every page of every name, and each name's robots.txt once.
    expect(stats.pages).toBe(60);
    expect(server.log.filter((entry) => entry.path === '/robots.txt')).toHaveLength(20);
    expect(new Set(server.log.map(hostOf))).toEqual(new Set(NAMES));
    expect(smallestGap(server.log)).toBeGreaterThanOrEqual(DELAY - 2);
    // The crawler keyed every request, robots.txt included, by the address.
    expect(new Set(requests.map((event) => event.hostKey))).toEqual(new Set(['127.0.0.1']));
  });

  it("'ip' with two requests allowed in flight per key: each start is still a delay after the last", async () => {
    const server = await sharedServer();
    const { stats } = await crawl(server, NAMES.slice(0, 8), {
      politenessKey: 'ip',
      minDelayMs: DELAY,
      perHostConcurrency: 2,
    });
    expect(stats.pages).toBe(24);
    expect(smallestGap(server.log)).toBeGreaterThanOrEqual(DELAY - 2);
  });

  it("'host' (the default): each name keeps its own clock, so one server sees the names' requests together", async () => {
    const server = await sharedServer();
    const { stats, requests } = await crawl(server, NAMES, { minDelayMs: DELAY });
    expect(stats.pages).toBe(60);
    expect(smallestGap(server.log)).toBeLessThan(DELAY / 2);
    expect(new Set(requests.map((event) => event.hostKey))).toEqual(new Set(NAMES));
    // Per name, the delay holds.
    for (const name of NAMES)
      expect(smallestGap(server.log.filter((entry) => hostOf(entry) === name)), name).toBeGreaterThanOrEqual(DELAY - 2);
  });

  it("'domain': a.example.test and b.example.test share one clock, at the larger crawl-delay of the two; example.org keeps its own", async () => {
    const names = ['a.example.test', 'b.example.test', 'example.org', 'www.example.org'];
    const server = await sharedServer((host) => (host === 'b.example.test' ? 0.2 : undefined));
    const { stats, requests } = await crawl(server, names, { politenessKey: 'domain', minDelayMs: DELAY });
    expect(stats.pages).toBe(12);
    const exampleTest = server.log.filter((entry) => hostOf(entry).endsWith('example.test'));
    const exampleOrg = server.log.filter((entry) => hostOf(entry).endsWith('example.org'));
    expect(exampleTest).toHaveLength(8);
    // Once b.example.test's robots.txt said 0.2 s, the key keeps 200 ms for a.example.test too.
    const afterDelayKnown = exampleTest.slice(
      exampleTest.findIndex((entry) => hostOf(entry) === 'b.example.test' && entry.path === '/robots.txt'),
    );
    expect(smallestGap(afterDelayKnown)).toBeGreaterThanOrEqual(198);
    expect(smallestGap(exampleTest)).toBeGreaterThanOrEqual(DELAY - 2);
    expect(smallestGap(exampleOrg)).toBeGreaterThanOrEqual(DELAY - 2);
    // The two keys run side by side: the server sees them closer together than either's delay.
    expect(smallestGap(server.log)).toBeLessThan(DELAY);
    expect(new Set(requests.map((event) => event.hostKey))).toEqual(new Set(['example.test', 'example.org']));
  });

  it("'ip': a name that resolves to an address the crawl may not reach is skipped when queued, and never requested", async () => {
    const server = await sharedServer();
    const port = new URL(server.base).port;
    const resolver: HostResolver = async (hostname) => [
      { address: hostname === 'inside.test' ? '10.1.2.3' : '127.0.0.1', family: 4 },
    ];
    const crawler = createCrawler({
      userAgent: UA,
      seeds: [`http://ok.test:${port}/`, `http://inside.test:${port}/`],
      scope: 'any',
      allowNet: ['127.0.0.0/8'],
      resolver,
      politenessKey: 'ip',
      minDelayMs: 0,
    });
    const skips: SkipEvent[] = [];
    crawler.on('skip', (event) => skips.push(event));
    const stats = await crawler.run();
    expect(stats.pages).toBe(3);
    expect(skips.filter((skip) => skip.reason === 'blocked-address').map((skip) => skip.url)).toEqual([
      `http://inside.test:${port}/`,
    ]);
    expect(server.log.every((entry) => hostOf(entry) === 'ok.test')).toBe(true);
  });

  it("'ip': a name with several addresses is keyed by the one it connects to, the first", async () => {
    const server = await startServer(
      {
        '/': '<html><body><a href="/p1">1</a></body></html>',
        '/p1': 'one',
        '/robots.txt': 'User-agent: *\nAllow: /\n',
      },
      '127.0.0.2',
    );
    servers.push(server);
    const port = new URL(server.base).port;
    // Nothing listens on 127.0.0.1 at this port: a connection to the second address would fail.
    const resolver: HostResolver = async () => [
      { address: '127.0.0.2', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    const crawler = createCrawler({
      userAgent: UA,
      seeds: [`http://multi.test:${port}/`],
      allowNet: ['127.0.0.0/8'],
      resolver,
      politenessKey: 'ip',
      minDelayMs: 0,
      maxRetries: 0,
    });
    const requests: RequestEvent[] = [];
    crawler.on('request', (event) => requests.push(event));
    const stats = await crawler.run();
    expect(stats.pages).toBe(2);
    expect(server.paths().sort()).toEqual(['/', '/p1', '/robots.txt']);
    expect(new Set(requests.map((event) => event.hostKey))).toEqual(new Set(['127.0.0.2']));
  });

  it("'ip': a name that does not resolve fails alone (its URLs skipped, robots.txt unreachable), and the crawl goes on", async () => {
    const server = await sharedServer();
    const port = new URL(server.base).port;
    const crawler = createCrawler({
      userAgent: UA,
      seeds: [`http://ok.test:${port}/`, `http://gone.test:${port}/`],
      scope: 'any',
      allowNet: ['127.0.0.0/8'],
      resolver: loopbackResolver(['ok.test']),
      politenessKey: 'ip',
      minDelayMs: 0,
      maxRetries: 0,
      maxRobotsRetries: 0,
    });
    const skips: SkipEvent[] = [];
    crawler.on('skip', (event) => skips.push(event));
    const stats = await crawler.run();
    expect(stats.pages).toBe(3);
    // Its robots.txt cannot be fetched (the name does not resolve): its URLs are skipped as such.
    expect(skips.filter((skip) => skip.url.includes('gone.test')).map((skip) => [skip.url, skip.reason])).toEqual([
      [`http://gone.test:${port}/`, 'robots-unreachable'],
    ]);
    expect(server.log.every((entry) => hostOf(entry) === 'ok.test')).toBe(true);
  });

  it('refuses a key it does not know, and ip keys or a resolver with a proxy', () => {
    expectInvalidOption(
      () => createCrawler({ userAgent: UA, politenessKey: 'server' as never }),
      'politenessKey must be one of host, domain, ip',
    );
    expectInvalidOption(
      () => createCrawler({ userAgent: UA, politenessKey: 'ip', proxy: 'http://203.0.113.5:3128' }),
      "politenessKey 'ip' cannot be used with a proxy",
    );
    expectInvalidOption(
      () => createCrawler({ userAgent: UA, resolver: async () => [], proxy: 'http://203.0.113.5:3128' }),
      'resolver cannot be used with a proxy',
    );
  });
});
