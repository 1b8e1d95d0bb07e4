// Retry-After across workers: two crawlers (two store objects, two connections) on one Redis
// crawl, judged by the server's own log (server clock).
//
// Each worker has one request in flight at most (concurrency 1) and the host allows two
// (maxInFlight 2), so the two requests in flight at the host are surely one per worker. The
// server holds its one 503 (`Retry-After: 2`) to /p1 until both are in, then answers it; the other
// page answers 200 later. So the 503 settles in one worker and the 200 in the other, after it:
// the settle that used to move the host's clock back before the Retry-After (each worker knew
// only its own holds, and the store wrote the clock the 200's worker gave it). From the moment
// the 503 is sent, neither worker has a free slot until something settles, so every request
// that arrives after it was started after a settle and must obey the Retry-After: no tolerance
// window is needed.

import { type CrawlStats, createCrawler } from '@politely/crawler';
import { describe, expect, it } from 'vitest';
import { skipWithout } from '../../../test/support/requirements.js';
import { type Site, startRetryAfterSite, violations } from '../../../test/support/retry-after-site.js';
import { createRedisFrontierStore, createRedisRobotsCache } from '../src/index.js';
import {
  deleteCrawls,
  REDIS_URL,
  redisDownReason,
  redisSuiteTitle,
  uniqueCrawlId,
  warnIfSkipped,
} from './redis-helpers.js';

const redisDown = await redisDownReason();
const skipRedis = skipWithout('Redis (REDIS_URL)', redisDown);
warnIfSkipped('retry-after-workers.test.ts', redisDown);

const UA = 'TestBot/1.0 (+http://example.invalid/bot)';
const RETRY_AFTER_S = 2;
const PAGES = ['/p1', '/p2', '/p3', '/p4'];
/** How long every page but the refused one takes to answer: it settles well after the 503. */
const SLOW_MS = 400;

/** One 503 with `Retry-After: 2` to /p1 of four pages, held until both workers' requests are in. */
const startSite = (): Promise<Site> =>
  startRetryAfterSite({
    status: 503,
    form: 'seconds',
    seconds: RETRY_AFTER_S,
    inFlight: 2,
    pages: PAGES.length,
    slowMs: SLOW_MS,
  });

/** Requests to the host that arrived after the 503 was sent and before its Retry-After ran out. */
const tooEarly = (site: Site): string[] => violations(site).hostWide;

describe.skipIf(skipRedis)(redisSuiteTitle('Retry-After across two Redis workers', redisDown), () => {
  it('a 200 settled by one worker does not move the host clock back before the other’s 503 Retry-After', async () => {
    const site = await startSite();
    const crawlId = uniqueCrawlId('retry-after-workers');
    // Bounds the crawl: a worker that would wait on forever is stopped (its run() then resolves).
    const stop = new AbortController();
    const workers = [0, 1].map((worker) => {
      const store = createRedisFrontierStore({
        redis: REDIS_URL,
        crawlId,
        defaultHostPolicy: { delayMs: 0, maxInFlight: 2 },
        idlePollMs: 20,
      });
      const robotsCache = createRedisRobotsCache({ redis: REDIS_URL, crawlId });
      const requests: string[] = [];
      const crawler = createCrawler({
        userAgent: UA,
        allowNet: ['127.0.0.0/8'],
        seeds: [`${site.base}/`],
        store,
        robotsCache,
        minDelayMs: 0,
        perHostConcurrency: 2,
        // One request in flight per worker: the two at the host are one per worker.
        concurrency: 1,
        // A short backoff, so that the Retry-After is what holds the host.
        backoffBaseMs: 10,
        maxRetries: 2,
        signal: stop.signal,
      });
      crawler.on('request', (event) => requests.push(`${event.url.slice(site.base.length)} by worker ${worker}`));
      return { store, robotsCache, crawler, requests };
    });
    const timer = setTimeout(() => stop.abort(), 20_000);
    let stats: CrawlStats[];
    try {
      stats = await Promise.all(workers.map((w) => w.crawler.run()));
    } finally {
      clearTimeout(timer);
      for (const w of workers) {
        await w.store.close();
        await w.robotsCache.close();
      }
      await site.close();
      expect(await deleteCrawls([crawlId])).toBe(0);
    }
    const log = workers.flatMap((w) => w.requests);
    expect(stop.signal.aborted, 'the workers did not finish within 20 s').toBe(false);

    expect(site.refusals, log.join('\n')).toHaveLength(1);
    // The scene is the one described: two pages in flight at the host, one per worker.
    const refusal = site.refusals[0]!;
    const inFlightAtRefusal = site.arrivals.slice(0, refusal.arrivedBefore).filter((a) => a.path.startsWith('/p'));
    expect(inFlightAtRefusal.map((a) => a.path).sort(), log.join('\n')).toEqual(['/p1', '/p2']);
    // No request to the host within the Retry-After, whichever worker sent it.
    expect(tooEarly(site), log.join('\n')).toEqual([]);
    // Every page was fetched, /p1 twice (the 503, then its retry), and nothing failed for good.
    expect(site.arrivals.filter((a) => a.path === '/p1')).toHaveLength(2);
    for (const path of PAGES.slice(1))
      expect(
        site.arrivals.filter((a) => a.path === path),
        path,
      ).toHaveLength(1);
    expect(site.arrivals.filter((a) => a.path === '/robots.txt')).toHaveLength(1);
    expect(stats.reduce((sum, s) => sum + s.retries, 0)).toBe(1);
    expect(stats.reduce((sum, s) => sum + s.errors, 0)).toBe(0);
  });
});
