// `adaptiveConcurrency` on real crawls: a crawl whose handler saturates the event loop holds few
// responses waiting for it (fewer requests in flight); a crawl that waits on a slow server holds
// all of `concurrency` in flight, by the server's own count.

import { createCrawler } from '@politely/crawler';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../../test/support/site-server.js';

const UA = 'TestBot/1.0 (+http://example.invalid/bot)';
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

type Respond = (_req: unknown, res: { end(body: string): void; setHeader(n: string, v: string): void }) => void;

/**
 * `hosts` hosts (127.0.0.2 and up), each a front page linking to `pages` pages. Every answer
 * waits `waitMs`. The servers count the requests they hold together (in flight at the servers),
 * and the most at once; `asked()` counts the pages asked for.
 */
async function sites(hosts: number, pages: number, waitMs: number) {
  const paths = Array.from({ length: pages }, (_, i) => `/p${i}`);
  const counts = { holding: 0, mostHeld: 0 };
  const answer =
    (body: string): Respond =>
    (_req, res) => {
      counts.holding++;
      counts.mostHeld = Math.max(counts.mostHeld, counts.holding);
      setTimeout(() => {
        counts.holding--;
        res.setHeader('content-type', 'text/html');
        res.end(body);
      }, waitMs);
    };
  const routes: Parameters<typeof startServer>[0] = {
    '/robots.txt': 'User-agent: *\nAllow: /\n',
    '/': answer(paths.map((p) => `<a href="${p}">${p}</a>`).join('')) as never,
  };
  for (const p of paths) routes[p] = answer(`<p>${'text '.repeat(200)}</p>`) as never;
  const started = await Promise.all(Array.from({ length: hosts }, (_, i) => startServer(routes, `127.0.0.${i + 2}`)));
  servers.push(...started);
  const asked = () => started.reduce((sum, s) => sum + s.log.filter((r) => r.path !== '/robots.txt').length, 0);
  return { seeds: started.map((s) => `${s.base}/`), counts, asked };
}

/**
 * Crawls 16 hosts whose handler holds the event loop 12 ms a page. Returns the most pages the
 * servers had been asked for that the handler had not yet seen (requests in flight and responses
 * waiting in the crawler, by the servers' logs) over the second half of the crawl, the lowest
 * limit the crawler had over that half, and its limit at the end (the last pages leave the loop
 * idle, and the limit may rise again then).
 */
async function cpuBoundCrawl(adaptiveConcurrency: boolean) {
  const { seeds, asked } = await sites(16, 10, 10);
  let handled = 0;
  let mostWaiting = 0;
  let lowestLimit = Infinity;
  const crawler = createCrawler({
    userAgent: UA,
    allowNet: ['127.0.0.0/8'],
    seeds,
    minDelayMs: 0,
    concurrency: 32,
    perHostConcurrency: 4,
    adaptiveConcurrency,
    handler: () => {
      handled++;
      if (handled > 88) {
        mostWaiting = Math.max(mostWaiting, asked() - handled);
        lowestLimit = Math.min(lowestLimit, crawler.concurrencyLimit);
      }
      const until = performance.now() + 12;
      while (performance.now() < until) {}
    },
  });
  const stats = await crawler.run();
  return { stats, mostWaiting, lowestLimit, limit: crawler.concurrencyLimit, asked: asked() };
}

describe('adaptiveConcurrency', () => {
  it('holds fewer responses waiting for a saturated event loop than a fixed concurrency does', async () => {
    const fixed = await cpuBoundCrawl(false);
    const adaptive = await cpuBoundCrawl(true);
    // Nothing is lost or fetched twice either way.
    for (const run of [fixed, adaptive]) {
      expect(run.stats.pages).toBe(176);
      expect(run.asked).toBe(176);
    }
    expect(fixed.limit).toBe(32);
    // With 32 in flight, pages pile up behind a handler that takes 12 ms a page.
    expect(fixed.mostWaiting, `fixed ${fixed.mostWaiting}, adaptive ${adaptive.mostWaiting}`).toBeGreaterThanOrEqual(
      16,
    );
    // The governor has brought the limit down toward its floor, kept it below the fixed one, and few pages wait.
    expect(adaptive.lowestLimit).toBeLessThanOrEqual(8);
    expect(adaptive.limit).toBeLessThan(32);
    expect(adaptive.mostWaiting, `fixed ${fixed.mostWaiting}, adaptive ${adaptive.mostWaiting}`).toBeLessThanOrEqual(
      10,
    );
  });

  it('holds all of concurrency in flight while the crawl waits on the network', async () => {
    const { seeds, counts } = await sites(6, 60, 120);
    const crawler = createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      seeds,
      minDelayMs: 0,
      concurrency: 24,
      perHostConcurrency: 4,
      handler: () => {},
    });
    const stats = await crawler.run();
    expect(stats.pages).toBe(366);
    expect(crawler.concurrencyLimit).toBe(24);
    expect(counts.mostHeld).toBe(24);
  });
});
