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

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createCrawler, type CrawlStats } from '@politely/crawler';
import { createRedisFrontierStore, createRedisRobotsCache } from '../src/index.js';
import { deleteCrawls, REDIS_URL, redisDownReason, redisSuiteTitle, uniqueCrawlId, warnIfSkipped } from './redis-helpers.js';

const redisDown = await redisDownReason();
warnIfSkipped('retry-after-workers.test.ts', redisDown);

const UA = 'TestBot/1.0 (+http://example.invalid/bot)';
const RETRY_AFTER_S = 2;
const PAGES = ['/p1', '/p2', '/p3', '/p4'];
/** How long every page but the refused one takes to answer: it settles well after the 503. */
const SLOW_MS = 400;

interface Arrival {
  readonly path: string;
  /** Date.now() at the server when the request arrived. */
  readonly at: number;
}

interface Refusal {
  /** Date.now() at the server just before the 503 was sent. */
  readonly sentAt: number;
  /** Requests in the log when it was sent (every later one arrived after it). */
  readonly arrivedBefore: number;
  /** No request to the host may arrive before this. */
  readonly notBefore: number;
}

interface Site {
  readonly base: string;
  readonly arrivals: Arrival[];
  readonly refusals: Refusal[];
  close(): Promise<void>;
}

async function startSite(): Promise<Site> {
  const arrivals: Arrival[] = [];
  const refusals: Refusal[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };
  const pageArrivals = (): number => arrivals.filter((a) => a.path.startsWith('/p')).length;
  let refused = false;

  const refuse = (res: ServerResponse, waitedMs: number): void => {
    // Both workers' requests are in (bounded wait).
    if (pageArrivals() < 2 && waitedMs < 5000) {
      later(10, () => refuse(res, waitedMs + 10));
      return;
    }
    const sentAt = Date.now();
    refusals.push({ sentAt, arrivedBefore: arrivals.length, notBefore: sentAt + RETRY_AFTER_S * 1000 });
    res.writeHead(503, { 'retry-after': String(RETRY_AFTER_S), 'content-type': 'text/plain' });
    res.end('later');
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '';
    arrivals.push({ path, at: Date.now() });
    if (path === '/robots.txt') {
      res.setHeader('content-type', 'text/plain');
      res.end('User-agent: *\nAllow: /\n');
    } else if (path === '/') {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(PAGES.map((p) => `<a href="${p}">${p}</a>`).join(''));
    } else if (path === '/p1' && !refused) {
      refused = true;
      refuse(res, 0);
    } else if (PAGES.includes(path)) {
      later(path === '/p1' ? 0 : SLOW_MS, () => {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(`page ${path}`);
      });
    } else {
      res.statusCode = 404;
      res.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let closed = false;
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    refusals,
    close: async () => {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Requests to the host that arrived after the 503 was sent and before its Retry-After ran out. */
function tooEarly(site: Site): string[] {
  return site.refusals.flatMap((refusal) =>
    site.arrivals
      .slice(refusal.arrivedBefore)
      .filter((arrival) => arrival.at < refusal.notBefore)
      .map((arrival) => `${arrival.path} at +${arrival.at - refusal.sentAt} ms, not before +${refusal.notBefore - refusal.sentAt} ms`),
  );
}

describe.skipIf(redisDown !== null)(redisSuiteTitle('Retry-After across two Redis workers', redisDown), () => {
  it('a 200 settled by one worker does not move the host clock back before the other’s 503 Retry-After', async () => {
    const site = await startSite();
    const crawlId = uniqueCrawlId('retry-after-workers');
    // Bounds the crawl: a worker that would wait on forever is stopped (its run() then resolves).
    const stop = new AbortController();
    const workers = [0, 1].map((worker) => {
      const store = createRedisFrontierStore({ redis: REDIS_URL, crawlId, defaultHostPolicy: { delayMs: 0, maxInFlight: 2 }, idlePollMs: 20 });
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
    for (const path of PAGES.slice(1)) expect(site.arrivals.filter((a) => a.path === path), path).toHaveLength(1);
    expect(site.arrivals.filter((a) => a.path === '/robots.txt')).toHaveLength(1);
    expect(stats.reduce((sum, s) => sum + s.retries, 0)).toBe(1);
    expect(stats.reduce((sum, s) => sum + s.errors, 0)).toBe(0);
  });
});
