import { PolitelyError } from '@politely/core';
import { createCrawler, isFatalCrawlError } from '@politely/crawler';
import { createMemoryFrontierStore, type FrontierStore } from '@politely/frontier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../../test/support/site-server.js';

// 40 pages, each linking to the next five: a crawl with many URLs queued at any moment.
const PAGES = 40;
const page = (n: number): string =>
  `<html><body>${Array.from({ length: 5 }, (_, i) => `<a href="/p/${(n + i + 1) % PAGES}">next</a>`).join('')}</body></html>`;

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ '/robots.txt': 'User-agent: *\nAllow: /\n' }, '127.0.0.1', (path) => {
    const match = /^\/p\/(\d+)$/.exec(path);
    return match === null ? undefined : page(Number(match[1]));
  });
});
afterAll(() => server.close());

const USER_AGENT = 'FatalBot/1.0 (+http://example.invalid/bot)';

describe('isFatalCrawlError', () => {
  it('is true for output and store failures only', () => {
    expect(isFatalCrawlError(new PolitelyError('ERR_OUTPUT', 'disk full'))).toBe(true);
    expect(isFatalCrawlError(new PolitelyError('ERR_STORE', 'gone'))).toBe(true);
    expect(isFatalCrawlError(new PolitelyError('ERR_FETCH_FAILED', 'reset'))).toBe(false);
    expect(isFatalCrawlError(new Error('handler bug'))).toBe(false);
  });
});

describe('crawler.run() and errors that end a crawl', () => {
  it('a handler that throws ERR_OUTPUT stops the crawl; the page that failed and all not done stay queued', async () => {
    const store = createMemoryFrontierStore({ defaultHostPolicy: { delayMs: 0, maxInFlight: 4 } });
    const written: string[] = [];
    const crawler = createCrawler({
      userAgent: USER_AGENT,
      seeds: [`${server.base}/p/0`],
      allowNet: ['127.0.0.0/8'],
      store,
      perHostConcurrency: 4,
      handler: async (page) => {
        if (written.length === 5) throw new PolitelyError('ERR_OUTPUT', 'could not write out.jsonl: ENOSPC');
        written.push(page.finalUrl);
      },
    });
    const started = Date.now();
    const failure = await crawler.run().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(PolitelyError);
    expect((failure as PolitelyError).code).toBe('ERR_OUTPUT');
    expect(Date.now() - started).toBeLessThan(5_000);
    // Every URL the crawler knew and did not write a record for is still in the store.
    const counts = await store.counts();
    expect(counts.inFlight).toBe(0);
    // A URL counts as done only once its handler resolved.
    expect(counts.done).toBe(written.length);
    const queued = await drain(store);
    const fetchedPages = server
      .paths()
      .filter((path) => path.startsWith('/p/'))
      .map((path) => `${server.base}${path}`);
    const notWritten = [...new Set(fetchedPages)].filter((url) => !written.includes(url));
    // The page whose record failed, and any page aborted in flight, went back to the queue.
    for (const url of notWritten) expect(queued).toContain(url);
    expect(queued.length).toBeGreaterThan(0);
  });

  it('an ordinary handler error is reported and the crawl goes on', async () => {
    const errors: string[] = [];
    let calls = 0;
    const crawler = createCrawler({
      userAgent: USER_AGENT,
      seeds: [`${server.base}/p/0`],
      allowNet: ['127.0.0.0/8'],
      maxPages: 6,
      handler: () => {
        calls++;
        if (calls === 2) throw new Error('a bug in one page');
      },
    });
    crawler.on('error', (event) => errors.push(`${event.stage}: ${event.error.message}`));
    const stats = await crawler.run();
    expect(stats.pages).toBe(6);
    expect(errors).toEqual(['handler: a bug in one page']);
  });

  it('a store that fails while claiming rejects run() with its error after in-flight work ended', async () => {
    const inner = createMemoryFrontierStore({ defaultHostPolicy: { delayMs: 0, maxInFlight: 2 } });
    let claims = 0;
    const store: FrontierStore = {
      ...bind(inner),
      claim: async (request) => {
        if (++claims === 6) {
          throw new PolitelyError('ERR_STORE', 'the crawl is gone');
        }
        return inner.claim(request);
      },
    };
    const crawler = createCrawler({
      userAgent: USER_AGENT,
      seeds: [`${server.base}/p/0`],
      allowNet: ['127.0.0.0/8'],
      store,
      perHostConcurrency: 2,
    });
    const failure = await crawler.run().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((failure as PolitelyError).code).toBe('ERR_STORE');
    // Requests in flight when the store failed were settled or handed back before run() rejected.
    expect((await inner.counts()).inFlight).toBe(0);
  });
});

/** The store's methods, bound, so a test can replace one. */
function bind(store: FrontierStore): FrontierStore {
  return {
    add: store.add.bind(store),
    claim: store.claim.bind(store),
    complete: store.complete.bind(store),
    release: store.release.bind(store),
    retry: store.retry.bind(store),
    reopenDue: store.reopenDue.bind(store),
    requeueFailed: store.requeueFailed.bind(store),
    failures: store.failures.bind(store),
    clear: store.clear.bind(store),
    setHostPolicy: store.setHostPolicy.bind(store),
    counts: store.counts.bind(store),
    hostCounts: store.hostCounts.bind(store),
    close: store.close.bind(store),
  };
}

/** Claims every queued URL (a bounded loop), returning their URLs. */
async function drain(store: FrontierStore): Promise<string[]> {
  const urls: string[] = [];
  for (let i = 0; i < 1_000; i++) {
    const result = await store.claim({ now: Date.now() + 3_600_000, leaseMs: 60_000 });
    if (result.lease === null) break;
    urls.push(result.lease.entry.url);
    await store.complete(result.lease.id);
  }
  return urls;
}

describe('crawler.run() lifecycle', () => {
  it('counts its stats from run(), not from construction, and runs once: a second call says to make a new crawler', async () => {
    const store = createMemoryFrontierStore({ defaultHostPolicy: { delayMs: 0, maxInFlight: 2 } });
    const crawler = createCrawler({
      userAgent: USER_AGENT,
      seeds: [`${server.base}/p/0`],
      allowNet: ['127.0.0.0/8'],
      store,
      maxPages: 3,
      minDelayMs: 0,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = Date.now();
    const stats = await crawler.run();
    expect(stats.startedAt).toBeGreaterThanOrEqual(before);
    expect(stats.durationMs).toBeLessThanOrEqual(Date.now() - before);
    expect(crawler.stats().finishedAt).toBe(stats.finishedAt);
    await expect(crawler.run()).rejects.toThrow(/has run already; create a new crawler with the same store/);
    // The store outlives the crawler: a new one goes on with what is queued.
    const next = createCrawler({ userAgent: USER_AGENT, allowNet: ['127.0.0.0/8'], store, maxPages: 2, minDelayMs: 0 });
    expect((await next.run()).pages).toBe(2);
  });
});
