// The cookie-resume checks every durable store runs: a crawl's cookie jar is kept in the store
// (saved a while after a cookie is set, before the crawl ends, so a killed crawl keeps it too)
// and a crawl resumed on that store sends the cookies of the earlier run.

import { createCrawler } from '@politely/crawler';
import type { FrontierStore } from '@politely/frontier';
import { expect } from 'vitest';
import type { CookieSites } from './cookie-sites.js';

const UA = 'CookieBot/1.0 (+http://example.invalid/bot)';
/** The store's metadata key of the crawler's jar. */
export const COOKIE_JAR_KEY = 'politely:cookie-jar';

type DurableStore = FrontierStore & { loadMetadata<T = unknown>(key: string): Promise<T | undefined> };

const crawlerOn = (
  sites: CookieSites,
  store: FrontierStore,
  extra: { maxPages?: number; handler?: (url: string) => Promise<void> } = {},
) =>
  createCrawler({
    userAgent: UA,
    seeds: [`${sites.home.base}/`],
    store,
    allowNet: ['127.0.0.0/8'],
    minDelayMs: 0,
    cookies: true,
    ...(extra.maxPages === undefined ? {} : { maxPages: extra.maxPages }),
    handler: async (page) => extra.handler?.(page.url),
  });

/** Crawls one page (which sets `sid`), closes the store, reopens it and resumes: the next page gets the cookie. */
export async function expectCookiesSurviveResume(
  sites: CookieSites,
  open: () => DurableStore | Promise<DurableStore>,
): Promise<void> {
  sites.home.log.length = 0;
  const first = await open();
  const stats = await crawlerOn(sites, first, { maxPages: 1 }).run();
  expect(stats.pages).toBe(1);
  expect(stats.queued).toBeGreaterThan(0);
  const saved = await first.loadMetadata<{ cookies: { key: string; value: string }[] }>(COOKIE_JAR_KEY);
  expect(saved?.cookies.map((cookie) => `${cookie.key}=${cookie.value}`)).toEqual(['sid=s1']);
  await first.close();

  const second = await open();
  try {
    await crawlerOn(sites, second).run();
  } finally {
    await second.close();
  }
  expect(sites.home.cookieOf('/')).toBeUndefined();
  expect(sites.home.cookieOf('/next')).toBe('sid=s1');
  expect(sites.home.cookieOf('/after')).toBe('sid=s1; hop=h1');
  expect(sites.other.log.every((entry) => entry.cookie === undefined)).toBe(true);
}

/** While the crawl runs, the jar reaches the store (debounced), not only when the crawl ends. */
export async function expectJarSavedDuringCrawl(sites: CookieSites, store: DurableStore): Promise<void> {
  let seenWhileRunning = false;
  await crawlerOn(sites, store, {
    handler: async (url) => {
      if (!url.endsWith('/next')) return;
      // Bounded: 40 looks, 100 ms apart (the save comes about 1 s after the cookie was set).
      for (let i = 0; i < 40 && !seenWhileRunning; i++) {
        const saved = await store.loadMetadata<{ cookies: { key: string }[] }>(COOKIE_JAR_KEY);
        seenWhileRunning = saved?.cookies.some((cookie) => cookie.key === 'sid') === true;
        if (!seenWhileRunning) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  }).run();
  expect(seenWhileRunning).toBe(true);
}
