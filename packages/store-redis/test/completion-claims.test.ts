// A crawl on the Redis store claims for the slot a page frees in the page's completion
// (`completeAndClaim`: one script instead of a completion and a claim). Judged on a real Redis
// and a real server's own log: every page once, each host's delay held at per-host concurrency 1
// and above, `maxPages` exact, and a stopped crawl that loses nothing and resumes. The site's
// host names all share one bucket of the store, so that a completion's claim has other hosts
// to choose from.

import type { HostResolver } from '@politely/core';
import { type CrawlStats, createCrawler } from '@politely/crawler';
import type { FrontierStore } from '@politely/frontier';
import { afterEach, describe, expect, it } from 'vitest';
import { skipWithout } from '../../../test/support/requirements.js';
import type { LoggedRequest } from '../../../test/support/site-server.js';
import { startSiteInThread, type ThreadedSite, type ThreadRoute } from '../../../test/support/site-thread.js';
import { createRedisFrontierStore, type RedisFrontierStore } from '../src/index.js';
import {
  deleteCrawls,
  hostsInOneBucket,
  REDIS_URL,
  redisDownReason,
  redisSuiteTitle,
  uniqueCrawlId,
  warnIfSkipped,
} from './redis-helpers.js';

const redisDown = await redisDownReason();
warnIfSkipped('completion-claims.test.ts', redisDown);

const UA = 'TestBot/1.0 (+http://example.invalid/bot)';
/**
 * How late the site's thread may log one arrival and not the next: the OS runs it beside the
 * crawler's thread and other test files' work on two cores. A pacing defect sends requests
 * together, far closer than this.
 */
const SERVER_SCHEDULING_LAG_MS = 4;

interface Site {
  /** Served from a thread of its own: its log has arrivals however busy the crawler keeps this thread. */
  readonly server: ThreadedSite;
  readonly names: readonly string[];
  readonly seeds: string[];
  readonly resolver: HostResolver;
  /** Page requests (robots.txt left out) by host name, in the server's order. */
  pagesByName(): Promise<Map<string, LoggedRequest[]>>;
}

/** One server answering for `names` (resolved to it): each `/` links to `pages` pages, answered after `answerMs`. */
async function startSite(names: readonly string[], pages: number, answerMs = 0): Promise<Site> {
  const links = Array.from({ length: pages }, (_, i) => `<a href="/p${i}">p${i}</a>`).join('');
  const answer = (body: string): ThreadRoute => (answerMs > 0 ? { body, delaysMs: [answerMs] } : { body });
  const routes: Record<string, string | ThreadRoute> = { '/robots.txt': 'User-agent: *\nAllow: /\n' };
  routes['/'] = answer(links);
  for (let i = 0; i < pages; i++) routes[`/p${i}`] = answer(`page ${i}`);
  const server = await startSiteInThread(routes);
  const port = new URL(server.base).port;
  return {
    server,
    names,
    seeds: names.map((name) => `http://${name}:${port}/`),
    resolver: async (hostname) => {
      if (!names.includes(hostname)) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return [{ address: '127.0.0.1', family: 4, ttlSeconds: 60 }];
    },
    async pagesByName() {
      const byName = new Map<string, LoggedRequest[]>(names.map((name) => [name, []]));
      for (const r of await server.requests()) {
        if (r.path === '/robots.txt') continue;
        byName.get(String(r.headers.host).split(':')[0]!)!.push(r);
      }
      return byName;
    },
  };
}

/** The real store, its claims and completions counted as they pass (and what the completions claimed). */
function counted(store: RedisFrontierStore): {
  claims: number;
  completeAndClaims: number;
  claimedBySettle: number;
  /** Of them, claimed ahead: their host's clock came after the completion's now (`startAt`). */
  claimedAhead: number;
} {
  const counts = { claims: 0, completeAndClaims: 0, claimedBySettle: 0, claimedAhead: 0 };
  const claim = store.claim.bind(store);
  const completeAndClaim = store.completeAndClaim.bind(store);
  const open = store as { -readonly [K in keyof FrontierStore]: FrontierStore[K] };
  open.claim = (request) => {
    counts.claims++;
    return claim(request);
  };
  open.completeAndClaim = async (leaseId, options, request) => {
    counts.completeAndClaims++;
    const done = await completeAndClaim(leaseId, options, request);
    if (done.next !== null) counts.claimedBySettle++;
    if (done.next?.startAt !== undefined) counts.claimedAhead++;
    return done;
  };
  return counts;
}

/** Each host's `pages` pages were requested once each, by the server's log. */
async function expectEachPageOnce(site: Site, pages: number): Promise<void> {
  for (const [name, requests] of await site.pagesByName()) {
    expect(requests, name).toHaveLength(pages);
    expect(new Set(requests.map((r) => r.path)).size, name).toBe(pages);
  }
}

/** Smallest gap between consecutive requests of each host, by the server's clock. */
async function smallestGapByName(site: Site): Promise<number> {
  let smallest = Infinity;
  for (const requests of (await site.pagesByName()).values())
    for (let i = 1; i < requests.length; i++) smallest = Math.min(smallest, requests[i]!.at - requests[i - 1]!.at);
  return smallest;
}

describe.skipIf(skipWithout('Redis (REDIS_URL)', redisDown))(
  redisSuiteTitle('a crawl whose completions claim (completeAndClaim)', redisDown),
  () => {
    const crawlIds: string[] = [];
    const sites: Site[] = [];
    const stores: RedisFrontierStore[] = [];

    afterEach(async () => {
      for (const store of stores.splice(0)) await store.close();
      for (const site of sites.splice(0)) await site.server.close();
      expect(await deleteCrawls(crawlIds.splice(0))).toBe(0);
    });

    async function crawl(
      site: Site,
      options: { perHostConcurrency: number; minDelayMs: number; maxPages?: number; stopAfter?: number },
      crawlId = uniqueCrawlId('completion-claims'),
    ): Promise<{ stats: CrawlStats; counts: ReturnType<typeof counted>; store: RedisFrontierStore }> {
      if (!crawlIds.includes(crawlId)) crawlIds.push(crawlId);
      const store = createRedisFrontierStore({ redis: REDIS_URL, crawlId, idlePollMs: 20 });
      stores.push(store);
      const counts = counted(store);
      const crawler = createCrawler({
        userAgent: UA,
        allowNet: ['127.0.0.0/8'],
        seeds: site.seeds,
        scope: 'any',
        resolver: site.resolver,
        store,
        concurrency: 6,
        perHostConcurrency: options.perHostConcurrency,
        minDelayMs: options.minDelayMs,
        ...(options.maxPages === undefined ? {} : { maxPages: options.maxPages }),
      });
      if (options.stopAfter !== undefined) {
        let requests = 0;
        crawler.on('request', () => {
          if (++requests === options.stopAfter) crawler.stop();
        });
      }
      const stats = await crawler.run();
      return { stats, counts, store };
    }

    it('claims most pages in their completions, and fetches every page once', async () => {
      const site = await startSite(hostsInOneBucket(4, 'claims').hosts, 12);
      sites.push(site);
      const { stats, counts } = await crawl(site, { perHostConcurrency: 2, minDelayMs: 0 });
      expect(stats.pages).toBe(4 * 13);
      await expectEachPageOnce(site, 13);
      expect((await site.server.requests()).filter((r) => r.path === '/robots.txt')).toHaveLength(4);
      // Most leases came with a completion; the loop's own claims were the rest (and the first few).
      expect(counts.claimedBySettle).toBeGreaterThan(stats.pages / 2);
      expect(counts.claims).toBeLessThan(stats.pages / 2);
    });

    it("claims a host's next URL ahead when its clock comes a moment after the completion, and fetches every page once", async () => {
      // A 4 ms delay: each host's clock is its response's head + 1 ms grain + 4 ms, a moment after
      // the completion goes (unless the page took that long to handle: 60 completions, so that a
      // busy machine still makes some ahead); claimed ahead, the next URL waits in its slot.
      const site = await startSite(hostsInOneBucket(3, 'claims').hosts, 20);
      sites.push(site);
      const { stats, counts } = await crawl(site, { perHostConcurrency: 1, minDelayMs: 4 });
      expect(stats.pages).toBe(3 * 21);
      await expectEachPageOnce(site, 21);
      expect(counts.claimedAhead).toBeGreaterThan(0);
      expect(counts.claimedBySettle).toBeGreaterThan(stats.pages / 2);
    });

    it.each([1, 3])(
      "holds each host's delay by the server's clock at perHostConcurrency %i",
      async (perHostConcurrency) => {
        // Answers slower than the delay at concurrency above 1: a host's requests overlap.
        const site = await startSite(hostsInOneBucket(3, 'claims').hosts, 6, perHostConcurrency > 1 ? 80 : 0);
        sites.push(site);
        const { stats, counts } = await crawl(site, { perHostConcurrency, minDelayMs: 50 });
        expect(stats.pages).toBe(3 * 7);
        for (const [name, requests] of await site.pagesByName()) expect(requests, name).toHaveLength(7);
        expect(counts.completeAndClaims).toBeGreaterThan(0);
        const log = (await site.server.requests())
          .map((r) => `${String(r.headers.host)}${r.path}@${r.at.toFixed(1)}`)
          .join(' ');
        expect(await smallestGapByName(site), log).toBeGreaterThanOrEqual(50 - SERVER_SCHEDULING_LAG_MS);
      },
    );

    it('fetches exactly maxPages pages', async () => {
      const site = await startSite(hostsInOneBucket(3, 'claims').hosts, 20);
      sites.push(site);
      const { stats, counts } = await crawl(site, { perHostConcurrency: 2, minDelayMs: 0, maxPages: 12 });
      expect(stats.pages).toBe(12);
      expect([...(await site.pagesByName()).values()].flat()).toHaveLength(12);
      expect(counts.completeAndClaims).toBeGreaterThan(0);
    });

    it('stops with nothing in flight and nothing lost: a second run fetches the rest, each page once', async () => {
      const site = await startSite(hostsInOneBucket(3, 'claims').hosts, 15);
      sites.push(site);
      const crawlId = uniqueCrawlId('completion-claims-stop');
      const first = await crawl(site, { perHostConcurrency: 2, minDelayMs: 0, stopAfter: 10 }, crawlId);
      const counts = await first.store.counts();
      expect(counts.inFlight).toBe(0);
      expect(counts.done).toBe(first.stats.pages);
      expect(counts.done).toBeLessThan(3 * 16);
      expect(counts.done + counts.queued).toBe(3 * 16);
      await crawl(site, { perHostConcurrency: 2, minDelayMs: 0 }, crawlId);
      await expectEachPageOnce(site, 16);
    });
  },
);
