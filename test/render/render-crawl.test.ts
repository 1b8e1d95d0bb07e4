// A crawl that renders pages in Chromium, judged by the render web's own request logs: it finds
// what exists only after scripts run, and every request the browser makes is as polite as the
// crawler's own — robots.txt of each origin first and obeyed (a third-party script host's too),
// the address guard, the crawler's User-Agent, and each host's delay, sub-requests included.

import { readdirSync, readFileSync } from 'node:fs';
import { ChromiumRenderer } from '@politely/browser';
import { type CrawlerOptions, type CrawlStats, createCrawler, type SkipEvent } from '@politely/crawler';
import {
  type LoggedRequest,
  minGapMsByOrigin,
  type RenderCrawlTruth,
  type RenderWeb,
  renderManifest,
  startRenderWeb,
  violations,
} from '@politely/demo-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const UA = 'PolitelyDemo/1.0 (+https://example.test/bot)';
/** The app host's delay (the crawl's minimum); the cdn's robots.txt asks for 0.2 s. */
const APP_DELAY_MS = 150;
const CDN_DELAY_MS = 200;
/** The server's clock and ours tick apart: a gap may read this much short. */
const CLOCK_SLACK_MS = 2;

let web: RenderWeb;
let truth: RenderCrawlTruth;

beforeAll(async () => {
  web = await startRenderWeb({ firstAddress: 150 });
  truth = renderManifest(web);
});

afterAll(async () => {
  await web.close();
});

interface RenderedCrawl {
  readonly stats: CrawlStats;
  /** Rendered `<title>` by final URL, as the handler read it from `page.$`. */
  readonly titles: Map<string, string>;
  readonly skips: SkipEvent[];
  readonly log: LoggedRequest[];
}

async function crawlRendered(options: Partial<CrawlerOptions> = {}): Promise<RenderedCrawl> {
  web.resetLogs();
  const titles = new Map<string, string>();
  const skips: SkipEvent[] = [];
  const crawler = createCrawler({
    userAgent: UA,
    seeds: [web.entryUrl],
    allowNet: ['127.0.0.0/8'],
    minDelayMs: APP_DELAY_MS,
    concurrency: 4,
    render: true,
    renderer: new ChromiumRenderer(),
    handler: async (page) => {
      expect(page.rendered).toBe(true);
      titles.set(page.finalUrl, page.$('title').text());
    },
    ...options,
  });
  crawler.on('skip', (skip) => skips.push(skip));
  const stats = await crawler.run();
  return { stats, titles, skips, log: web.requestLog() };
}

/** The request log with its origins' robots.txt requests and page paths, for one host name. */
const onHost = (log: readonly LoggedRequest[], name: string): LoggedRequest[] =>
  log.filter((entry) => entry.host === name);

describe('a crawl with render: true on the render web', () => {
  let crawl: RenderedCrawl;

  beforeAll(async () => {
    crawl = await crawlRendered();
  }, 120_000);

  it('finds the pages that exist only in the rendered DOM and records their rendered titles', () => {
    expect(truth.pages.length).toBeGreaterThan(10);
    expect(Object.fromEntries(crawl.titles)).toEqual(truth.renderedTitles);
    expect(crawl.stats.rendering.pageLoads).toBe(truth.pages.length);
  });

  it("requests each page once: the browser loads it from the crawler's response", () => {
    const app = onHost(crawl.log, 'app');
    for (const page of truth.pages) {
      const path = new URL(page.url).pathname + new URL(page.url).search;
      expect(app.filter((entry) => entry.path === path).length, path).toBe(1);
    }
  });

  it('never requests what robots.txt disallows, on the app or on the third-party script host', () => {
    expect(violations(web, 'PolitelyDemo')).toEqual([]);
    const paths = crawl.log.map((entry) => entry.path);
    expect(paths.filter((path) => path.startsWith('/api/tracking'))).toEqual([]);
    expect(paths).not.toContain('/lib/analytics.js');
    // Refused sub-requests are robots skips of kind sub-resource, naming the page that asked.
    const subResourceSkips = crawl.skips.filter((skip) => skip.kind === 'sub-resource' && skip.reason === 'robots');
    expect(subResourceSkips.map((skip) => new URL(skip.url).pathname)).toEqual(
      expect.arrayContaining(['/api/tracking', '/lib/analytics.js']),
    );
    for (const skip of subResourceSkips) expect(truth.pages.map((page) => page.url)).toContain(skip.referrer);
    expect(crawl.stats.rendering.refused.robots).toBe(subResourceSkips.length);
  });

  it('asks each origin for its robots.txt before anything else from it', () => {
    for (const host of web.hosts) {
      const first = crawl.log.find((entry) => entry.origin === host.origin);
      expect(first?.path, host.name).toBe('/robots.txt');
      expect(
        crawl.log.filter((entry) => entry.origin === host.origin && entry.path === '/robots.txt').length,
        host.name,
      ).toBe(1);
    }
    expect(truth.robotsFirst).toEqual(web.hosts.map((host) => host.origin));
  });

  it('makes every allowed request the rendered pages need, and nothing it does not load (pictures)', () => {
    const seen = new Set(crawl.log.map((entry) => `${entry.origin}${entry.path}`));
    const needed = truth.requested.filter((request) => request.type !== 'image').map((request) => request.url);
    expect(needed.filter((url) => !seen.has(url))).toEqual([]);
    expect(crawl.log.filter((entry) => entry.path.startsWith('/images/'))).toEqual([]);
    expect(crawl.stats.rendering.refused['resource-type']).toBeGreaterThan(0);
  });

  it('refuses the beacon to a private address and the WebSocket: neither reaches a server', () => {
    expect(crawl.log.filter((entry) => entry.path.startsWith('/live'))).toEqual([]);
    expect(crawl.stats.rendering.refused['blocked-address']).toBeGreaterThanOrEqual(truth.pages.length);
    expect(crawl.stats.rendering.refused.websocket).toBeGreaterThanOrEqual(truth.pages.length);
  });

  it("sends the crawler's User-Agent with every request, the browser's included", () => {
    expect(crawl.log.length).toBeGreaterThan(truth.pages.length * 2); // each page and its API call, at least
    expect(crawl.log.filter((entry) => entry.userAgent !== UA)).toEqual([]);
  });

  it("keeps every host's delay between any two requests, sub-requests included", () => {
    const gaps = minGapMsByOrigin(crawl.log);
    expect(gaps.get(web.host('app').origin)).toBeGreaterThanOrEqual(APP_DELAY_MS - CLOCK_SLACK_MS);
    expect(gaps.get(web.host('cdn').origin)).toBeGreaterThanOrEqual(CDN_DELAY_MS - CLOCK_SLACK_MS);
  });

  it('counts page loads and sub-requests per host', () => {
    const app = crawl.stats.rendering.byHost[new URL(web.host('app').origin).hostname];
    const cdn = crawl.stats.rendering.byHost[new URL(web.host('cdn').origin).hostname];
    expect(app?.pageLoads).toBe(truth.pages.length);
    // app.js and the API call of every page, each one request the app's log shows.
    const appSubRequests = onHost(crawl.log, 'app').filter(
      (entry) => entry.path === '/static/app.js' || entry.path.startsWith('/api/'),
    ).length;
    expect(app?.subRequests).toBe(appSubRequests);
    expect(cdn?.pageLoads ?? 0).toBe(0);
    expect(cdn?.subRequests).toBe(onHost(crawl.log, 'cdn').filter((entry) => entry.path !== '/robots.txt').length);
    expect(crawl.stats.requests).toBe(crawl.log.length);
  });
});

describe('rendering at per-host concurrency 2', () => {
  it("still keeps each host's delay between the starts of any two requests", async () => {
    const crawl = await crawlRendered({ perHostConcurrency: 2, maxPages: 8 });
    expect(crawl.stats.rendering.pageLoads).toBe(8);
    expect(violations(web, 'PolitelyDemo')).toEqual([]);
    const gaps = minGapMsByOrigin(crawl.log);
    expect(gaps.get(web.host('app').origin)).toBeGreaterThanOrEqual(APP_DELAY_MS - CLOCK_SLACK_MS);
    expect(gaps.get(web.host('cdn').origin)).toBeGreaterThanOrEqual(CDN_DELAY_MS - CLOCK_SLACK_MS);
  }, 120_000);
});

/** Chromium processes that are children of this process (the browser, not its helpers). */
function chromiumChildren(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const command = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (parent === process.pid && command.includes('chrom')) pids.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

describe('a browser that dies or a crawl that stops', () => {
  it('goes on when the Chromium process is killed mid-crawl: its pages are retried', async () => {
    let killed = 0;
    const titles = new Map<string, string>();
    const crawl = await crawlRendered({
      maxPages: 10,
      handler: async (page) => {
        titles.set(page.finalUrl, page.$('title').text());
        if (titles.size === 3 && killed === 0) {
          const pids = chromiumChildren();
          expect(pids.length).toBeGreaterThan(0);
          for (const pid of pids) process.kill(pid, 'SIGKILL');
          killed = pids.length;
        }
      },
    });
    expect(killed).toBeGreaterThan(0);
    expect(crawl.stats.rendering.pageLoads).toBeGreaterThanOrEqual(10);
    // Every page fetched was rendered in the end: its rendered title is the truth's.
    expect(titles.size).toBeGreaterThanOrEqual(9);
    for (const [url, title] of titles) expect(title, url).toBe(truth.renderedTitles[url]);
    expect(violations(web, 'PolitelyDemo')).toEqual([]);
  }, 120_000);

  it('leaves no Chromium process behind when the crawl is aborted', async () => {
    const stop = new AbortController();
    const crawl = await crawlRendered({
      signal: stop.signal,
      handler: async () => {
        stop.abort();
      },
    });
    expect(crawl.stats.aborted).toBe(true);
    expect(chromiumChildren()).toEqual([]);
  }, 60_000);

  it('refuses render without a renderer, naming the option', () => {
    expect(() => createCrawler({ userAgent: UA, render: true })).toThrow(/renderer/);
  });
});
