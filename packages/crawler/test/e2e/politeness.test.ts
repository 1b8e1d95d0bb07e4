import { createCrawler, type ErrorEvent, type SkipEvent } from '@politely/crawler';
import { afterEach, describe, expect, it } from 'vitest';
import { smallestGapMs, startServer, type TestServer } from '../../../../test/support/site-server.js';

const UA = 'TestBot/1.0 (+http://example.invalid/bot)';
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const serve = async (...args: Parameters<typeof startServer>) => {
  const server = await startServer(...args);
  servers.push(server);
  return server;
};
const links = (...paths: string[]) => paths.map((p) => `<a href="${p}">${p}</a>`).join('');

describe('createCrawler politeness', () => {
  it('sends nothing but robots.txt requests to a host whose robots.txt answers 503', async () => {
    const site = await serve({
      '/robots.txt': (_req, res) => {
        res.statusCode = 503;
        res.end('down');
      },
      '/': links('/a'),
    });
    const skips: SkipEvent[] = [];
    const crawler = createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      seeds: [`${site.base}/`],
      minDelayMs: 0,
      backoffBaseMs: 20,
      maxRobotsRetries: 2,
    });
    crawler.on('skip', (s) => skips.push(s));
    // Its one seed refused, the crawl fetched nothing: that is an error naming the seed.
    await expect(crawler.run()).rejects.toMatchObject({
      code: 'ERR_SEEDS_REFUSED',
      seeds: [{ url: `${site.base}/`, reason: 'robots-unreachable' }],
    });
    expect(new Set(site.paths())).toEqual(new Set(['/robots.txt']));
    expect(site.paths().length).toBe(3); // the first attempt and two retries
    expect(skips.map((s) => s.reason)).toEqual(['robots-unreachable']);
    expect(crawler.stats().pages).toBe(0);
  });

  it('obeys Retry-After on 429 before trying the URL again', async () => {
    let calls = 0;
    const site = await serve({
      '/robots.txt': 'User-agent: *\nAllow: /\n',
      '/': (_req, res) => {
        calls++;
        if (calls === 1) {
          res.writeHead(429, { 'retry-after': '1' });
          res.end();
          return;
        }
        res.end('ok');
      },
    });
    const errors: ErrorEvent[] = [];
    const crawler = createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      seeds: [`${site.base}/`],
      minDelayMs: 0,
    });
    crawler.on('error', (e) => errors.push(e));
    const stats = await crawler.run();
    const pageRequests = site.log.filter((r) => r.path === '/');
    expect(pageRequests).toHaveLength(2);
    expect(pageRequests[1]!.at - pageRequests[0]!.at).toBeGreaterThanOrEqual(995);
    expect(errors).toMatchObject([{ willRetry: true, attempt: 1 }]);
    expect(stats).toMatchObject({ pages: 1, retries: 1, errors: 0 });
    expect(stats.byStatus).toEqual({ 200: 1 });
  });

  it('does not follow a redirect into a disallowed path', async () => {
    const site = await serve({
      '/robots.txt': 'User-agent: *\nDisallow: /secret\n',
      '/': (_req, res) => {
        res.writeHead(302, { location: '/secret/page' });
        res.end();
      },
    });
    const skips: SkipEvent[] = [];
    const crawler = createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      seeds: [`${site.base}/`],
      minDelayMs: 0,
    });
    crawler.on('skip', (s) => skips.push(s));
    await crawler.run();
    expect(site.paths()).toEqual(['/robots.txt', '/']);
    expect(skips).toMatchObject([{ url: `${site.base}/secret/page`, reason: 'robots' }]);
  });

  it('reports an oversized body and a timeout without stopping the crawl', async () => {
    const site = await serve({
      '/robots.txt': 'User-agent: *\nAllow: /\n',
      '/': links('/big', '/slow', '/fine'),
      '/big': (_req, res) => res.end('x'.repeat(200_000)),
      '/slow': (_req, res) => {
        res.writeHead(200);
        res.write('.');
      },
      '/fine': 'fine',
    });
    const skips: SkipEvent[] = [];
    const errors: ErrorEvent[] = [];
    const crawler = createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      seeds: [`${site.base}/`],
      minDelayMs: 0,
      maxBodyBytes: 100_000,
      requestTimeoutMs: 300,
      maxRetries: 0,
    });
    crawler.on('skip', (s) => skips.push(s));
    crawler.on('error', (e) => errors.push(e));
    const stats = await crawler.run();
    expect(skips.filter((s) => s.reason === 'too-large').map((s) => s.url)).toEqual([`${site.base}/big`]);
    expect(errors.map((e) => [e.url, (e.error as { code?: string }).code, e.willRetry])).toEqual([
      [`${site.base}/slow`, 'ERR_TIMEOUT', false],
    ]);
    expect(stats.pages).toBe(2); // / and /fine
    expect(site.paths()).toContain('/fine');
  });

  it('never lets two requests to one host come closer than its crawl-delay, across many URLs', async () => {
    const paths = Array.from({ length: 8 }, (_, i) => `/p${i}`);
    const routes: Record<string, string> = {
      '/robots.txt': 'User-agent: TestBot\nCrawl-delay: 0.15\n',
      '/': links(...paths),
    };
    for (const p of paths) routes[p] = 'page';
    const site = await serve(routes);
    await createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      seeds: [`${site.base}/`],
      minDelayMs: 0,
      concurrency: 8,
    }).run();
    expect(site.log).toHaveLength(10);
    expect(smallestGapMs(site.log)).toBeGreaterThanOrEqual(149);
  });

  it('stops on abort, keeping the queued URLs in the store', async () => {
    const paths = Array.from({ length: 20 }, (_, i) => `/p${i}`);
    const routes: Record<string, string> = {
      '/robots.txt': 'User-agent: *\nCrawl-delay: 0.05\n',
      '/': links(...paths),
    };
    for (const p of paths) routes[p] = 'page';
    const site = await serve(routes);
    const controller = new AbortController();
    const crawler = createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      seeds: [`${site.base}/`],
      minDelayMs: 0,
      signal: controller.signal,
    });
    crawler.on('response', () => {
      if (site.paths().length >= 5) controller.abort();
    });
    const stats = await crawler.run();
    expect(stats.aborted).toBe(true);
    const fetched = site.paths().length - 1;
    expect(fetched).toBeLessThan(21);
    expect(stats.queued + stats.pages).toBe(21); // nothing lost: every URL is fetched or still queued
    expect((await crawler.store.counts()).inFlight).toBe(0);
  });
});
