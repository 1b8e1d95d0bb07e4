// A crawl over the hostile web (loopback servers that misbehave in every way the issue lists)
// finishes; every bad case is a counted, explained skip or error; every good page is fetched;
// nothing robots.txt disallows is requested; memory stays bounded and no case holds the crawl
// for longer than its limit allows.

import { type CrawlStats, createCrawler, type ErrorEvent, type SkipEvent } from '@politely/crawler';
import { type HostileWeb, startHostileWeb } from '@politely/local-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disallowedRequests, unmetExpectations } from './judge.js';

const USER_AGENT = 'PolitelyDemo/0.1 (+https://example.invalid/bot)';
const MiB = 1024 * 1024;

let web: HostileWeb;
beforeAll(async () => {
  web = await startHostileWeb();
});
afterAll(() => web.close());

interface Observed {
  readonly stats: CrawlStats;
  readonly pages: string[];
  readonly skips: SkipEvent[];
  readonly errors: ErrorEvent[];
  readonly peakRssGrowth: number;
  readonly wallMs: number;
}

async function crawlHostileWeb(): Promise<Observed> {
  const pages: string[] = [];
  const skips: SkipEvent[] = [];
  const errors: ErrorEvent[] = [];
  const crawler = createCrawler({
    userAgent: USER_AGENT,
    seeds: [web.entryUrl],
    allowNet: ['127.0.0.0/8'], // loopback only: 10.255.255.1 and 169.254.169.254 stay refused
    scope: 'any',
    minDelayMs: 50,
    requestTimeoutMs: 2000,
    maxRetries: 1,
    maxRobotsRetries: 1,
    backoffBaseMs: 100,
    backoffMaxMs: 500,
    handler: (page) => {
      if (page.status === 200) pages.push(page.finalUrl);
    },
  });
  crawler.on('skip', (event) => skips.push(event));
  crawler.on('error', (event) => {
    if (!event.willRetry) errors.push(event);
  });
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  try {
    const stats = await crawler.run();
    return { stats, pages, skips, errors, peakRssGrowth: peak - baseline, wallMs: performance.now() - started };
  } finally {
    clearInterval(sampler);
  }
}

describe('a crawl of the hostile web', () => {
  let observed: Observed;
  beforeAll(async () => {
    observed = await crawlHostileWeb();
    if (process.env.HOSTILE_REPORT)
      console.log(
        JSON.stringify({
          wallMs: observed.wallMs,
          peakRssGrowthMiB: observed.peakRssGrowth / MiB,
          stats: observed.stats,
        }),
      );
  }, 120_000);

  it('fetches every good page and reports every bad case as the skip or error it is', () => {
    const problems = unmetExpectations(web, {
      pages: observed.pages,
      skips: observed.skips,
      errors: observed.errors.map((event) => event.url),
    });
    expect(problems).toEqual([]);
  });

  it('never requests what robots.txt disallows, the many-links targets and past the 500 KiB cap included', () => {
    expect(disallowedRequests(web)).toEqual([]);
    const bigRobots = web.host('big-robots');
    const paths = web.requestLog(bigRobots.origin).map((request) => request.path);
    expect(paths).toContain('/late/page'); // its Disallow line lies past the cap: ignored
    expect(paths).not.toContain('/private/secret');
  });

  it('counts every skip and error in the stats, and explains each', () => {
    const { stats, skips, errors } = observed;
    const counted = Object.values(stats.skipped).reduce((sum, n) => sum + (n ?? 0), 0);
    expect(counted).toBe(skips.length);
    expect(stats.errors).toBe(errors.length);
    for (const skip of skips)
      if (skip.reason !== 'duplicate') expect(skip.detail ?? skip.reason, skip.url).toBeTruthy();
    for (const error of errors) expect(error.error.message).toMatch(/^GET http/);
    // An answer that is not HTTP is reported at once, not retried; a reset or a timeout is retried.
    const garbage = errors.find((event) => event.url.endsWith('/garbage-status'));
    expect(garbage?.attempt).toBe(1);
    expect((garbage?.error as { code?: string } | undefined)?.code).toBe('ERR_PROTOCOL');
    expect(errors.find((event) => event.url.endsWith('/reset-mid-body'))?.attempt).toBe(2);
    // The many-links page: 10,000 links followed (all disallowed: robots skips), the rest one skip.
    expect(stats.skipped['too-many-links']).toBe(1);
    expect(stats.skipped.robots).toBeGreaterThanOrEqual(10_000);
  });

  it('holds memory bounded: no bomb, endless body or 10 MB robots.txt is ever held whole', () => {
    // 1 GiB bombs, an endless body and a slow drip, against 10 MiB body caps: an unbounded
    // crawler holds gigabytes; this one holds a few caps' worth.
    expect(observed.peakRssGrowth).toBeLessThan(400 * MiB);
  });

  it('finishes: each stalling server costs its deadline, never its own pace', () => {
    // The slow drip alone would take 11 days at its pace, the silent host forever; with 2 s
    // deadlines and one retry the crawl ends in well under two minutes.
    expect(observed.stats.aborted).toBe(false);
    expect(observed.stats.queued).toBe(0);
    expect(observed.wallMs).toBeLessThan(90_000);
  });
});
