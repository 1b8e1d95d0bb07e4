// Several requests in flight at one host (perHostConcurrency > 1) overlap only when a response
// takes longer than the host's delay; the requests still reach the server at least the delay
// apart, by the server's own clock, robots.txt included.

import { createHttpClient, type HostResolver } from '@politely/core';
import { createCrawler } from '@politely/crawler';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { smallestGapMs, startServer, type TestServer } from '../../../../test/support/site-server.js';
import { startSiteInThread, type ThreadedSite, type ThreadRoute } from '../../../../test/support/site-thread.js';

const UA = 'TestBot/1.0 (+http://example.invalid/bot)';
/**
 * How late the site's thread may log one arrival and not the next: the OS runs it beside the
 * crawler's thread and other test files' work on two cores (seen: 3.3 ms, with another process
 * spinning on one core). A pacing defect sends requests together, far closer than this.
 */
const SERVER_SCHEDULING_LAG_MS = 4;
const servers: TestServer[] = [];
const threads: ThreadedSite[] = [];
afterEach(async () => {
  await Promise.all([...servers.splice(0), ...threads.splice(0)].map((s) => s.close()));
});

const links = (...paths: string[]) => paths.map((p) => `<a href="${p}">${p}</a>`).join('');

type Respond = (_req: unknown, res: { end(body: string): void; setHeader(n: string, v: string): void }) => void;

/**
 * A site whose answers take longer than its crawl-delay (60 ms), so that requests overlap:
 * `/` links to `pages` pages; each answer waits `waitMs(n)` ms, n counting answers from 0. It is
 * served from a thread of its own, so its log has each request's arrival to the millisecond
 * however busy the crawler keeps this thread.
 */
async function slowSite(pages: number, waitMs: (n: number) => number): Promise<ThreadedSite> {
  const paths = Array.from({ length: pages }, (_, i) => `/p${i}`);
  // One wait per answer the site can give (every page once, a few retries over).
  const delaysMs = Array.from({ length: 2 * (pages + 1) }, (_, n) => waitMs(n));
  const routes: Record<string, string | ThreadRoute> = {
    '/robots.txt': 'User-agent: *\nCrawl-delay: 0.06\n',
    '/': { body: links(...paths), delaysMs },
  };
  for (const p of paths) routes[p] = { body: 'page', delaysMs };
  const site = await startSiteInThread(routes);
  threads.push(site);
  return site;
}

describe('perHostConcurrency > 1', () => {
  it.each([
    [2, 0],
    [3, 0],
    [4, 0],
    [3, 25],
    [4, 40],
  ])(
    'keeps requests %i-wide at least the crawl-delay apart at the server (handler busy %i ms)',
    async (inFlight, busyMs) => {
      // Responses slower than the delay, of uneven length: requests overlap, and answers come out of order.
      const site = await slowSite(14, (n) => 90 + ((n * 37) % 5) * 30);
      const stats = await createCrawler({
        userAgent: UA,
        allowNet: ['127.0.0.0/8'],
        seeds: [`${site.base}/`],
        minDelayMs: 0,
        concurrency: 8,
        perHostConcurrency: inFlight,
        // A handler that holds the event loop delays the requests about to go out: their lag from
        // turn to wire then differs, which is what must not shorten a gap.
        handler: () => {
          const until = performance.now() + busyMs;
          while (performance.now() < until) {}
        },
      }).run();
      expect(stats.pages).toBe(15);
      const log = await site.requests();
      expect(log).toHaveLength(16);
      expect(smallestGapMs(log), log.map((r) => `${r.path}@${r.at.toFixed(1)}`).join(' ')).toBeGreaterThanOrEqual(
        60 - SERVER_SCHEDULING_LAG_MS,
      );
    },
  );

  it('paces from when a request is written, not from when it was dispatched: a request held up on its way does not shorten the next gap', async () => {
    const site = await slowSite(12, () => 150);
    // Every other request waits 40 ms between dispatch and the wire, as one waiting for a
    // connection or a busy event loop would: a pace run from the dispatch would let the next
    // request, dispatched 60 ms later and sent at once, reach the server 20 ms after it.
    let dispatched = 0;
    const agent = new Agent();
    const lagging = agent.compose((dispatch) => (options, handler) => {
      const lagMs = dispatched++ % 2 === 0 ? 40 : 0;
      if (lagMs === 0) return dispatch(options, handler);
      setTimeout(() => dispatch(options, handler), lagMs);
      return true;
    });
    try {
      const stats = await createCrawler({
        userAgent: UA,
        seeds: [`${site.base}/`],
        minDelayMs: 0,
        concurrency: 8,
        perHostConcurrency: 3,
        httpClient: createHttpClient({ dispatcher: lagging }),
      }).run();
      expect(stats.pages).toBe(13);
      const pages = (await site.requests()).filter((r) => r.path !== '/robots.txt');
      expect(pages).toHaveLength(13);
      // Requests did overlap: several were at the server before the one before them was answered.
      const overlaps = pages.filter((r, i) => i > 0 && r.at - pages[i - 1]!.at < 150).length;
      expect(overlaps).toBeGreaterThan(3);
      expect(smallestGapMs(pages), pages.map((r) => `${r.path}@${r.at.toFixed(1)}`).join(' ')).toBeGreaterThanOrEqual(
        60 - SERVER_SCHEDULING_LAG_MS,
      );
    } finally {
      await agent.close();
    }
  });

  it('spaces robots.txt requests like pages: names on one address (politenessKey ip) fetch theirs while pages of the others are out', async () => {
    const site = await slowSite(4, () => 150);
    const port = new URL(site.base).port;
    const names = ['a.test', 'b.test', 'c.test', 'd.test', 'e.test', 'f.test'];
    const resolver: HostResolver = async (hostname) => {
      if (!names.includes(hostname)) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return [{ address: '127.0.0.1', family: 4, ttlSeconds: 60 }];
    };
    const stats = await createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      seeds: names.map((name) => `http://${name}:${port}/`),
      scope: 'any',
      resolver,
      politenessKey: 'ip',
      // The delay known before the first robots.txt says it (robots.txt of several names may be out at once).
      minDelayMs: 60,
      concurrency: 8,
      perHostConcurrency: 3,
    }).run();
    expect(stats.pages).toBe(names.length * 5);
    const log = await site.requests();
    const robots = log.filter((r) => r.path === '/robots.txt');
    expect(robots).toHaveLength(names.length);
    // robots.txt requests came between page requests (names after the first), not all at the start.
    const firstPage = log.findIndex((r) => r.path !== '/robots.txt');
    expect(log.slice(firstPage).some((r) => r.path === '/robots.txt')).toBe(true);
    // Arrivals as the site's own thread logged them: the crawler's work cannot delay them.
    expect(
      smallestGapMs(log),
      log.map((r) => `${String(r.headers.host)}${r.path}@${r.at.toFixed(1)}`).join(' '),
    ).toBeGreaterThanOrEqual(60 - SERVER_SCHEDULING_LAG_MS);
  });

  it('holds all of perHostConcurrency in flight at one host, above the 4 connections an HTTP client keeps by default', async () => {
    let holding = 0;
    let mostHeld = 0;
    const held: Respond = (_req, res) => {
      holding++;
      mostHeld = Math.max(mostHeld, holding);
      setTimeout(() => {
        holding--;
        res.setHeader('content-type', 'text/html');
        res.end('page');
      }, 200);
    };
    const paths = Array.from({ length: 24 }, (_, i) => `/p${i}`);
    const routes: Parameters<typeof startServer>[0] = {
      '/robots.txt': 'User-agent: *\nAllow: /\n',
      '/': links(...paths),
    };
    for (const p of paths) routes[p] = held as never;
    const site = await startServer(routes);
    servers.push(site);
    const stats = await createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      seeds: [`${site.base}/`],
      minDelayMs: 0,
      concurrency: 8,
      perHostConcurrency: 8,
    }).run();
    expect(stats.pages).toBe(25);
    expect(mostHeld).toBe(8);
  });
});
