// Each case of the hostile web on its own: a crawl seeded with the case's URL alone must end
// with the outcome the manifest names, within the time its limits allow, holding no more memory
// than its caps allow, and without fetching anything robots.txt disallows.

import {
  type CrawlerOptions,
  createCrawler,
  type ErrorEvent,
  SeedsRefusedError,
  type SkipEvent,
} from '@politely/crawler';
import { type HostileCase, startHostileWeb } from '@politely/local-web';
import { afterAll, describe, expect, it } from 'vitest';
import { disallowedRequests, unmetExpectations } from './judge.js';

const MiB = 1024 * 1024;
const LIMITS = {
  requestTimeoutMs: 2000,
  maxRetries: 1,
  maxRobotsRetries: 1,
  backoffBaseMs: 100,
  backoffMaxMs: 500,
  maxBodyBytes: 8 * MiB,
} satisfies Partial<CrawlerOptions>;
// The worst a case may cost: every attempt of a robots.txt and of the URL running to its
// deadline, plus backoffs and a margin for a loaded machine. Unbounded, the slow drip would take
// 11 days, the silent host forever.
const CASE_TIME_BOUND_MS = 2 * (LIMITS.maxRetries + 1) * LIMITS.requestTimeoutMs + 8000;
// Two body caps' worth (a bomb decoded to the cap, its text) plus a parsed 100,000-link page;
// unbounded, a 1 GiB bomb alone would take 1 GiB.
const CASE_MEMORY_BOUND = 300 * MiB;

// Started at collection time: the cases are known only once the web has its addresses.
const web = await startHostileWeb({ firstAddress: 80 });
afterAll(() => web.close());

interface CaseRun {
  readonly pages: string[];
  readonly skips: SkipEvent[];
  readonly errors: ErrorEvent[];
  readonly wallMs: number;
  readonly rssGrowth: number;
}

async function crawlCase(hostileCase: HostileCase): Promise<CaseRun> {
  const pages: string[] = [];
  const skips: SkipEvent[] = [];
  const errors: ErrorEvent[] = [];
  const crawler = createCrawler({
    userAgent: 'PolitelyDemo/0.1 (+https://example.invalid/bot)',
    seeds: [hostileCase.entryUrl],
    allowNet: ['127.0.0.0/8'],
    scope: 'any',
    minDelayMs: 20,
    // The case and what it leads to (redirect hops, a page's next page, a trap's chain), not the
    // whole web: a good page and its links only; a trap runs into the heuristic before depth 30.
    maxDepth: hostileCase.expect.kind === 'page' ? 1 : 30,
    ...LIMITS,
    handler: (page) => {
      if (page.status === 200) pages.push(page.finalUrl);
    },
  });
  crawler.on('skip', (event) => skips.push(event));
  crawler.on('error', (event) => {
    if (!event.willRetry) errors.push(event);
  });
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const started = performance.now();
  try {
    // A case whose one seed is refused or fails fetches nothing: run() says so (SeedsRefusedError),
    // and what the case expects is judged from the events below all the same.
    await crawler.run().catch((error: unknown) => {
      if (!(error instanceof SeedsRefusedError)) throw error;
    });
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  return { pages, skips, errors, wallMs: performance.now() - started, rssGrowth: peak - baseline };
}

describe('each hostile case, crawled alone', () => {
  for (const hostileCase of web.cases) {
    const outcome =
      hostileCase.expect.kind === 'skip'
        ? `a '${hostileCase.expect.reason}' skip`
        : hostileCase.expect.kind === 'page'
          ? 'a fetched page'
          : 'an error';
    it(
      `${hostileCase.name}: ${outcome}, in bounded time and memory`,
      async () => {
        web.resetLogs();
        const run = await crawlCase(hostileCase);
        const caseOnly = { ...web, cases: [hostileCase], goodPageUrls: [] };
        expect(
          unmetExpectations(caseOnly, { pages: run.pages, skips: run.skips, errors: run.errors.map((e) => e.url) }),
        ).toEqual([]);
        expect(disallowedRequests(web)).toEqual([]);
        // Reported, never thrown: every error event carries the URL it concerns.
        for (const error of run.errors) expect(error.error.message).toContain('http');
        expect(run.wallMs).toBeLessThan(CASE_TIME_BOUND_MS);
        expect(run.rssGrowth).toBeLessThan(CASE_MEMORY_BOUND);
        if (process.env.HOSTILE_REPORT)
          console.log(`${hostileCase.name}: ${Math.round(run.wallMs)} ms, +${(run.rssGrowth / MiB).toFixed(1)} MiB`);
      },
      CASE_TIME_BOUND_MS + 10_000,
    );
  }
});
