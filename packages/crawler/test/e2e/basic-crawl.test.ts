import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCrawler, type SkipEvent } from '@politely/crawler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const log: { path: string; at: number }[] = [];
let server: Server;
let base: string;

const pages: Record<string, string> = {
  '/': '<a href="/a">a</a><a href="/b">b</a><a href="/private/x">p</a><a rel="nofollow" href="/nf">nf</a><a href="mailto:x@y">m</a>',
  '/a': '<a href="/">home</a><a href="/c">c</a>',
  '/b': '<meta name="robots" content="nofollow"><a href="/hidden">h</a>',
  '/c': '<a href="/redirect">r</a>',
  '/nf': 'never fetched',
  '/hidden': 'never fetched',
  '/private/x': 'never fetched',
  '/final': '<p>final</p>',
};

beforeAll(async () => {
  server = createServer((req, res) => {
    log.push({ path: req.url ?? '', at: performance.now() });
    if (req.url === '/robots.txt') {
      res.end('User-agent: *\nDisallow: /private\nCrawl-delay: 0.2\n');
      return;
    }
    if (req.url === '/redirect') {
      res.writeHead(301, { location: '/final' });
      res.end();
      return;
    }
    const page = pages[req.url ?? ''];
    if (page === undefined) {
      res.statusCode = 404;
      res.end('nope');
      return;
    }
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(`<html><body>${page}</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('createCrawler', () => {
  it('crawls a site politely: robots, crawl-delay, nofollow, redirects, dedupe', async () => {
    const handled: { url: string; finalUrl: string; status: number; title: string }[] = [];
    const skips: SkipEvent[] = [];
    const crawler = createCrawler({
      userAgent: 'TestBot/1.0 (+http://example.invalid/bot)',
      allowNet: ['127.0.0.0/8'],
      seeds: [`${base}/`],
      minDelayMs: 0,
      handler: (page) => {
        handled.push({ url: page.url, finalUrl: page.finalUrl, status: page.status, title: page.$('p').text() });
      },
    });
    crawler.on('skip', (skip) => skips.push(skip));
    const stats = await crawler.run();

    const paths = log.map((entry) => entry.path);
    expect(paths[0]).toBe('/robots.txt');
    expect(paths.filter((p) => p === '/robots.txt')).toHaveLength(1);
    expect(paths).not.toContain('/private/x');
    expect(paths).not.toContain('/nf');
    expect(paths).not.toContain('/hidden');
    expect(new Set(paths).size).toBe(paths.length); // nothing fetched twice
    expect(paths.sort()).toEqual(['/', '/a', '/b', '/c', '/final', '/redirect', '/robots.txt'].sort());
    // Server-measured gaps between consecutive requests never below the crawl-delay.
    for (let i = 1; i < log.length; i++) expect(log[i]!.at - log[i - 1]!.at).toBeGreaterThanOrEqual(195);

    expect(handled.find((h) => h.finalUrl === `${base}/final`)).toMatchObject({
      url: `${base}/redirect`,
      status: 200,
      title: 'final',
    });
    expect(skips.filter((s) => s.reason === 'robots').map((s) => s.url)).toEqual([`${base}/private/x`]);
    expect(skips.find((s) => s.reason === 'robots')?.detail).toContain('Disallow: /private');
    expect(
      skips
        .filter((s) => s.reason === 'nofollow')
        .map((s) => s.url)
        .sort(),
    ).toEqual([`${base}/hidden`, `${base}/nf`]);
    expect(stats).toMatchObject({ pages: 5, robotsRequests: 1, requests: 7, errors: 0, queued: 0, aborted: false });
    expect(stats.skipped.robots).toBe(1);
    expect(stats.skipped.duplicate).toBeGreaterThan(0);
  });
});
