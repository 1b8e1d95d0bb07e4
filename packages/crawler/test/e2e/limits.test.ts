// The crawler's limits against a real server: links per page, the trap heuristic, the header
// limit, and the safe defaults every limit has.

import { type CrawlerOptions, type CrawlStats, createCrawler, type SkipEvent } from '@politely/crawler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Handler, startServer, type TestServer } from '../../../../test/support/site-server.js';
import { resolveCrawlerOptions } from '../../src/options.js';

const USER_AGENT = 'LimitBot/1.0 (+http://example.invalid/bot)';
const html = (body: string): string => `<!doctype html><html><body>${body}</body></html>`;

let server: TestServer;

beforeAll(async () => {
  const routes: Record<string, string | Handler> = {
    '/robots.txt': 'User-agent: *\nAllow: /\n',
    '/': html(
      '<a href="/many">many</a> <a href="/loop/a/">loop</a> <a href="/cal/2026/11">calendar</a> <a href="/search?q=a">search</a> <a href="/big-head">head</a>',
    ),
    // 50 distinct links; the first test takes 10.
    '/many': html(Array.from({ length: 50 }, (_, i) => `<a href="/t/${i}">${i}</a>`).join('')),
    '/big-head': (_req, res) => {
      res.setHeader('x-junk', 'j'.repeat(20_000));
      res.end(html('never read'));
    },
  };
  for (let i = 0; i < 50; i++) routes[`/t/${i}`] = html(`target ${i}`);
  server = await startServer(routes, '127.0.0.1', endlessPage);
});
afterAll(() => server.close());

/** Endless URL spaces, generated on request: every page links one step further in. */
function endlessPage(path: string): string | undefined {
  if (path.startsWith('/loop/')) return html('<a href="a/">deeper</a>');
  const month = /^\/cal\/(\d{4})\/(\d{2})$/.exec(path);
  if (month !== null) {
    const next = Number(month[1]) * 12 + Number(month[2]); // months since year 0 of the month after
    return html(`<a href="/cal/${Math.floor(next / 12)}/${String((next % 12) + 1).padStart(2, '0')}">next month</a>`);
  }
  if (path.startsWith('/search?')) return html(`<a href="${path}&amp;q=a">more</a>`);
  return undefined;
}

async function crawl(
  overrides: Partial<CrawlerOptions>,
): Promise<{ skips: SkipEvent[]; stats: CrawlStats; fetched: string[] }> {
  const skips: SkipEvent[] = [];
  const crawler = createCrawler({
    userAgent: USER_AGENT,
    seeds: [`${server.base}/`],
    allowNet: ['127.0.0.0/8'],
    minDelayMs: 0,
    maxPages: 200, // a bound for the test: a broken heuristic would still end
    ...overrides,
  });
  crawler.on('skip', (event) => skips.push(event));
  const stats = await crawler.run();
  return { skips, stats, fetched: server.paths() };
}

describe('crawler limits', () => {
  it('takes at most maxLinksPerPage links from a page and reports the rest as one skip', async () => {
    server.log.length = 0;
    const { skips, stats, fetched } = await crawl({ maxLinksPerPage: 10, trapDetection: false, maxDepth: 2 });
    const targets = fetched.filter((path) => path.startsWith('/t/'));
    expect(targets.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `/t/${i}`).sort());
    const over = skips.filter((skip) => skip.reason === 'too-many-links');
    expect(over).toHaveLength(1);
    expect(over[0]!.url).toBe(`${server.base}/many`);
    expect(over[0]!.detail).toContain('40 more distinct links');
    expect(stats.skipped['too-many-links']).toBe(1);
  });

  it('skips endless URL spaces as traps, with the reason, long before any other limit', async () => {
    server.log.length = 0;
    const { skips, stats, fetched } = await crawl({});
    const traps = skips.filter((skip) => skip.reason === 'trap');
    const trapUrls = traps.map((skip) => new URL(skip.url).pathname + new URL(skip.url).search);
    // /loop/a/ → /loop/a/a/ is fetched; /loop/a/a/a/ repeats 'a' three times in a row.
    expect(fetched).toContain('/loop/a/a/');
    expect(fetched).not.toContain('/loop/a/a/a/');
    expect(trapUrls).toContain('/loop/a/a/a/');
    // The calendar runs to the end of next-year-plus-two at most, never to 9999.
    const calendarPages = fetched.filter((path) => path.startsWith('/cal/'));
    const years = calendarPages.map((path) => Number(path.split('/')[2]));
    expect(Math.max(...years)).toBeLessThanOrEqual(new Date().getUTCFullYear() + 2);
    expect(traps.some((skip) => skip.url.includes('/cal/'))).toBe(true);
    // The growing query stops after a few repeats of q.
    const searches = fetched.filter((path) => path.startsWith('/search?'));
    expect(searches.length).toBeGreaterThan(0);
    expect(searches.length).toBeLessThan(6);
    expect(traps.some((skip) => skip.url.includes('/search?'))).toBe(true);
    for (const trap of traps) expect(trap.detail).toBeTruthy();
    expect(stats.skipped.trap).toBe(traps.length);
    expect(stats.pages).toBeLessThan(200);
  });

  it('follows an endless space down to maxDepth only when the heuristic is off', async () => {
    server.log.length = 0;
    const { skips, fetched } = await crawl({ trapDetection: false, maxDepth: 6 });
    expect(skips.some((skip) => skip.reason === 'trap')).toBe(false);
    expect(fetched).toContain('/loop/a/a/a/a/');
    expect(skips.some((skip) => skip.reason === 'depth')).toBe(true);
  });

  it('skips a response whose head is over maxHeaderBytes', async () => {
    server.log.length = 0;
    const { skips } = await crawl({ maxHeaderBytes: 16_384, trapDetection: false, maxDepth: 1 });
    const skip = skips.find((event) => event.url === `${server.base}/big-head`);
    expect(skip?.reason).toBe('headers-too-large');
  });

  it('has a safe default for every limit', () => {
    const options = resolveCrawlerOptions({ userAgent: USER_AGENT });
    expect(options).toMatchObject({
      maxRedirects: 5,
      maxBodyBytes: 10 * 1024 * 1024,
      requestTimeoutMs: 30_000,
      connectTimeoutMs: 10_000,
      maxHeaderBytes: 65_536,
      maxLinksPerPage: 10_000,
      maxPagesPerHost: 100_000,
      maxDepth: 100,
      blockPrivateNetworks: true,
    });
    expect(options.trapDetection).not.toBeNull();
    expect(resolveCrawlerOptions({ userAgent: USER_AGENT, trapDetection: false }).trapDetection).toBeNull();
    expect(() => resolveCrawlerOptions({ userAgent: USER_AGENT, maxLinksPerPage: -1 })).toThrow(/maxLinksPerPage/);
    expect(() => resolveCrawlerOptions({ userAgent: USER_AGENT, maxHeaderBytes: 10 })).toThrow(/maxHeaderBytes/);
  });
});
