// What a request looks like on the wire: crawl-wide headers and From on every request the
// crawler makes (robots.txt, pages, redirect hops, plugin resources), a request's own headers on
// top, and the crawler's identity over all of them. Judged by the servers' own logs.

import { type CrawlerPlugin, createCrawler } from '@politely/crawler';
import { createMemoryFrontierStore } from '@politely/frontier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoggedRequest, startServer, type TestServer } from '../../../../test/support/site-server.js';
import { expectInvalidOption } from '../expect-invalid-option.js';

const UA = 'HeaderBot/1.0 (+http://example.invalid/bot)';
const FROM = 'crawler-ops@example.com';
let site: TestServer;
let other: TestServer;

const redirect = (location: () => string) => (_req: unknown, res: import('node:http').ServerResponse) => {
  res.writeHead(302, { location: location() }).end();
};

beforeAll(async () => {
  // The other site's robots.txt moved: the gate's redirect hop carries the headers too.
  other = await startServer(
    {
      '/robots.txt': redirect(() => '/robots-moved.txt'),
      '/robots-moved.txt': 'User-agent: *\nAllow: /\n',
      '/away': '<p>away</p>',
    },
    '127.0.0.2',
  );
  site = await startServer({
    '/robots.txt': 'User-agent: *\nAllow: /\n',
    '/': '<a href="/a">a</a><a href="/hop">hop</a>',
    '/a': '<p>a</p>',
    '/hop': redirect(() => '/landing'),
    '/landing': '<p>landing</p>',
    '/own': '<p>own</p>',
    '/own-hop': redirect(() => '/own-target'),
    '/own-target': '<p>own target</p>',
    '/own-away': redirect(() => `${other.base}/away`),
    '/resource': '<p>a resource</p>',
  });
});

afterAll(async () => {
  await Promise.all([site.close(), other.close()]);
});

/** A plugin whose one resource is fetched by the crawler like a sitemap. */
const probePlugin = (url: () => string): CrawlerPlugin => ({
  name: 'probe',
  processors: { probe: { process: async () => {} } },
  start: async (context) => {
    await context.enqueue([{ url: url(), depth: 0, kind: 'probe', skipScope: true }]);
  },
});

const entry = (url: string, headers: Record<string, string>) => ({
  url,
  hostKey: new URL(url).hostname,
  depth: 0,
  priority: 0,
  headers,
});
const request = (server: TestServer, path: string): LoggedRequest | undefined =>
  server.log.find((r) => r.path === path);

describe('request headers on the wire', () => {
  it("sends crawl-wide headers and From on robots.txt, pages, redirect hops and plugin resources; a request's own on top; the identity over all", async () => {
    const store = createMemoryFrontierStore({ defaultHostPolicy: { delayMs: 0, maxInFlight: 1 } });
    // Requests with their own headers, as page.enqueue will queue them (the store takes them as they are:
    // even a User-Agent a store might hold does not replace the crawler's).
    await store.add([
      entry(`${site.base}/own`, { 'x-token': 'abc', 'accept-language': 'de', 'user-agent': 'Impostor/1.0' }),
      entry(`${site.base}/own-hop`, { 'x-token': 'hop' }),
      entry(`${site.base}/own-away`, { 'x-token': 'away' }),
    ]);
    const crawler = createCrawler({
      userAgent: UA,
      from: FROM,
      headers: { 'Accept-Language': 'fr', 'X-Crawl': 'wide' },
      seeds: [`${site.base}/`],
      scope: 'any',
      store,
      allowNet: ['127.0.0.0/8'],
      minDelayMs: 0,
      plugins: [probePlugin(() => `${site.base}/resource`)],
      handler: () => {},
    });
    const stats = await crawler.run();
    expect(stats.errors).toBe(0);

    const all = [...site.log, ...other.log];
    expect(all.map((r) => r.path).sort()).toEqual(
      [
        '/',
        '/a',
        '/hop',
        '/landing',
        '/own',
        '/own-hop',
        '/own-target',
        '/own-away',
        '/away',
        '/resource',
        '/robots.txt',
        '/robots.txt',
        '/robots-moved.txt',
      ].sort(),
    );
    for (const logged of all) {
      expect(logged.headers['user-agent'], logged.path).toBe(UA);
      expect(logged.headers['from'], logged.path).toBe(FROM);
      expect(logged.headers['x-crawl'], logged.path).toBe('wide');
    }
    expect(request(site, '/robots.txt')?.headers['accept-language']).toBe('fr');
    expect(request(other, '/robots-moved.txt')?.headers['accept-language']).toBe('fr');
    expect(request(site, '/landing')?.headers['accept-language']).toBe('fr');
    // A request's own headers override the crawl's; the hop to the same origin keeps them, the hop away drops them.
    expect(request(site, '/own')?.headers).toMatchObject({
      'x-token': 'abc',
      'accept-language': 'de',
      'user-agent': UA,
    });
    expect(request(site, '/own-hop')?.headers['x-token']).toBe('hop');
    expect(request(site, '/own-target')?.headers['x-token']).toBe('hop');
    expect(request(site, '/own-away')?.headers['x-token']).toBe('away');
    expect(request(other, '/away')?.headers['x-token']).toBeUndefined();
    expect(request(site, '/a')?.headers['x-token']).toBeUndefined();
    // No cookie is sent unless cookies are on.
    expect(all.every((r) => r.headers['cookie'] === undefined)).toBe(true);
  });

  it('sends no From header without the from option', async () => {
    site.log.length = 0;
    const crawler = createCrawler({
      userAgent: UA,
      seeds: [`${site.base}/a`],
      allowNet: ['127.0.0.0/8'],
      minDelayMs: 0,
    });
    await crawler.run();
    expect(site.log.length).toBeGreaterThan(0);
    expect(site.log.every((r) => r.headers['from'] === undefined && r.headers['user-agent'] === UA)).toBe(true);
  });
});

describe('createCrawler options headers, from, cookies, proxy', () => {
  const base = { userAgent: UA };
  it('refuses a forbidden or malformed header, naming it', () => {
    for (const name of [
      'Host',
      'User-Agent',
      'Connection',
      'Transfer-Encoding',
      'Proxy-Authorization',
      'Content-Length',
      'From',
    ]) {
      expectInvalidOption(() => createCrawler({ ...base, headers: { [name]: 'x' } }), 'createCrawler: headers', name);
    }
    expectInvalidOption(() => createCrawler({ ...base, headers: { 'X-A': 'a\r\nB: c' } }), 'X-A', 'CR, LF');
  });

  it('refuses a from that is not an e-mail address', () => {
    expectInvalidOption(
      () => createCrawler({ ...base, from: 'the ops team' }),
      'createCrawler: from',
      '"the ops team"',
    );
  });

  it('refuses cookies that are neither a flag nor a jar, and a proxy that is not http://host:port', () => {
    expectInvalidOption(
      () => createCrawler({ ...base, cookies: 'yes' as unknown as boolean }),
      'cookies must be true, false or a tough-cookie CookieJar',
    );
    expectInvalidOption(
      () => createCrawler({ ...base, proxy: 'socks5://127.0.0.1:1080' }),
      'createCrawler: proxy must be an http:// URL',
    );
  });
});
