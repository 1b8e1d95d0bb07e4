// The pages a sitemap lists, through the crawl's routes: the plugin's `label` and `userData`
// (values, or functions of the sitemap record), checked like any request's; and a page the
// plugin queued without a label that a route then enqueues with one takes that route.

import type { PolitelyError } from '@politely/core';
import { createCrawler, type PageContext } from '@politely/crawler';
import { type SitemapUrlRecord, sitemaps } from '@politely/sitemap';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { crawlWithSitemaps, UA } from './helpers/crawl.js';
import { urlset } from './helpers/fixtures.js';
import { useServers } from './helpers/server.js';

const serve = useServers();

const html = (body: string): string => `<!doctype html><html><body>${body}</body></html>`;

interface Handled {
  readonly route: string;
  readonly path: string;
  readonly label: string | undefined;
  readonly userData: Readonly<Record<string, unknown>>;
  readonly priority: number;
}

/** A route that notes each page it handled. */
const noting =
  (route: string, handled: Handled[]) =>
  (page: PageContext): void =>
    void handled.push({
      route,
      path: new URL(page.url).pathname,
      label: page.request.label,
      userData: page.request.userData,
      priority: page.request.priority,
    });

const byPath = (handled: readonly Handled[]): Handled[] => [...handled].sort((a, b) => a.path.localeCompare(b.path));

/** A shop whose robots.txt declares one urlset. */
async function shop(entries: Parameters<typeof urlset>[0] | ((base: string) => Parameters<typeof urlset>[0])) {
  const site = await serve({
    '/': html('<a class="product" href="/p/1">1</a><a class="product" href="/p/2">2</a>'),
    '/p/1': html('<h1>one</h1>'),
    '/p/2': html('<h1>two</h1>'),
    '/p/3': html('<h1>three</h1>'),
    '/about': html('<p>about</p>'),
  });
  site.routes['/robots.txt'] = `User-agent: *\nAllow: /\nSitemap: ${site.base}/sitemap.xml\n`;
  site.routes['/sitemap.xml'] = urlset(typeof entries === 'function' ? entries(site.base) : entries);
  return site;
}

describe('sitemaps({ label, userData })', () => {
  it('a label and userData given as values: every page listed goes to that route, with that userData', async () => {
    const site = await shop((b) => [`${b}/p/1`, `${b}/p/2`]);
    const handled: Handled[] = [];
    const outcome = await crawlWithSitemaps({
      plugin: { origins: [site.base], label: 'PRODUCT', userData: { source: 'sitemap' } },
      crawler: { handlers: { PRODUCT: noting('PRODUCT', handled), default: noting('default', handled) } },
    });
    expect(outcome.errors).toEqual([]);
    expect(byPath(handled)).toEqual([
      { route: 'PRODUCT', path: '/p/1', label: 'PRODUCT', userData: { source: 'sitemap' }, priority: 5 },
      { route: 'PRODUCT', path: '/p/2', label: 'PRODUCT', userData: { source: 'sitemap' }, priority: 5 },
    ]);
    // The store holds them with their label and userData (what a resume gives back).
    expect(outcome.added.filter((entry) => entry.kind === undefined).map((e) => [e.url, e.label, e.userData])).toEqual([
      [`${site.base}/p/1`, 'PRODUCT', { source: 'sitemap' }],
      [`${site.base}/p/2`, 'PRODUCT', { source: 'sitemap' }],
    ]);
  });

  it('functions of the sitemap record: each <url> entry (loc, lastmod, changefreq, priority) gets its own label and userData; undefined is none', async () => {
    const site = await shop((b) => [
      { loc: `${b}/p/1`, lastmod: '2026-10-28', changefreq: 'weekly', priority: '0.8' },
      { loc: `${b}/p/2`, lastmod: '2026-09-01' },
      { loc: `${b}/about`, changefreq: 'yearly' },
    ]);
    const seen: SitemapUrlRecord[] = [];
    const handled: Handled[] = [];
    const outcome = await crawlWithSitemaps({
      plugin: {
        origins: [site.base],
        label: (record) => {
          seen.push(record);
          return new URL(record.url).pathname.startsWith('/p/') ? 'PRODUCT' : undefined;
        },
        userData: ({ lastmod, changefreq, priority }) =>
          lastmod === undefined ? undefined : { lastmod, changefreq: changefreq ?? null, priority: priority ?? null },
      },
      crawler: { handlers: { PRODUCT: noting('PRODUCT', handled), default: noting('default', handled) } },
    });
    expect(outcome.errors).toEqual([]);
    const sitemap = `${site.base}/sitemap.xml`;
    expect(seen).toEqual([
      { url: `${site.base}/p/1`, lastmod: '2026-10-28', changefreq: 'weekly', priority: 0.8, sitemap },
      { url: `${site.base}/p/2`, lastmod: '2026-09-01', sitemap },
      { url: `${site.base}/about`, changefreq: 'yearly', sitemap },
    ]);
    expect(byPath(handled)).toEqual([
      { route: 'default', path: '/about', label: undefined, userData: {}, priority: 5 },
      {
        route: 'PRODUCT',
        path: '/p/1',
        label: 'PRODUCT',
        userData: { lastmod: '2026-10-28', changefreq: 'weekly', priority: 0.8 },
        priority: 8,
      },
      {
        route: 'PRODUCT',
        path: '/p/2',
        label: 'PRODUCT',
        userData: { lastmod: '2026-09-01', changefreq: null, priority: null },
        priority: 5,
      },
    ]);
  });

  it('a function that returns no label or no plain JSON: an error event for that URL, which is not queued; the others are', async () => {
    const site = await shop((b) => [`${b}/p/1`, `${b}/p/2`, `${b}/p/3`]);
    const handled: Handled[] = [];
    const outcome = await crawlWithSitemaps({
      plugin: {
        origins: [site.base],
        label: (record) => (record.url.endsWith('/p/2') ? '' : 'PRODUCT'),
        userData: (record) => (record.url.endsWith('/p/3') ? { at: new Date(0) } : { ok: true }),
      },
      crawler: { handlers: { PRODUCT: noting('PRODUCT', handled) } },
    });
    expect(handled.map((h) => [h.path, h.userData])).toEqual([['/p/1', { ok: true }]]);
    expect(outcome.errors.map((e) => [e.url, (e.error as PolitelyError).code, e.error.message])).toEqual([
      [`${site.base}/p/2`, 'ERR_INVALID_INPUT', `request ${site.base}/p/2: label must be a non-empty string, got ""`],
      [`${site.base}/p/3`, 'ERR_INVALID_INPUT', `request ${site.base}/p/3: userData.at is a Date, which is not JSON`],
    ]);
    expect(site.paths()).not.toContain('/p/2');
    expect(site.paths()).not.toContain('/p/3');
  });

  it('what a label or userData function throws goes to the crawler, as onUrl does: the rest of that file is not read', async () => {
    const site = await shop((b) => [`${b}/p/1`, `${b}/p/2`]);
    const outcome = await crawlWithSitemaps({
      plugin: {
        origins: [site.base],
        label: () => {
          throw new Error('a bug in the label function');
        },
      },
    });
    expect(outcome.errors.map((e) => [e.url, e.error.message])).toEqual([
      [`${site.base}/sitemap.xml`, 'a bug in the label function'],
    ]);
    expect(outcome.stats.pages).toBe(0);
  });

  it('a label or userData value that is no label or no plain JSON is refused by sitemaps(), naming the option', () => {
    const refused = (options: Parameters<typeof sitemaps>[0]): string => {
      try {
        sitemaps(options);
      } catch (error) {
        expect((error as PolitelyError).code).toBe('ERR_INVALID_OPTION');
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refused({ label: '' })).toBe(
      'sitemaps: label must be a non-empty string, got "", or a function of the sitemap record that returns one',
    );
    expect(refused({ label: 'x'.repeat(257) })).toMatch(/^sitemaps: label is 257 characters, over 256/);
    expect(refused({ userData: [1, 2] as never })).toBe(
      'sitemaps: userData must be a plain object, got an array, or a function of the sitemap record that returns one',
    );
    expect(refused({ userData: { n: Number.NaN } })).toMatch(/^sitemaps: userData\.n is NaN, which JSON cannot hold/);
    // Unknown keys are refused with the nearest name, the new ones included.
    expect(refused({ lable: 'PRODUCT' } as never)).toBe('sitemaps: unknown option lable (did you mean label?)');
    expect(refused({ userdata: {} } as never)).toBe('sitemaps: unknown option userdata (did you mean userData?)');
  });
});

describe('a page the sitemap queued without a label, then enqueued by a route with one', () => {
  it('takes the route: its label, its userData and the higher priority; it is counted by the enqueue and fetched once', async () => {
    // priorityScale 0: the listed pages wait behind the seed (the sitemap file itself is read first).
    const site = await shop((b) => [`${b}/p/1`, `${b}/p/2`, `${b}/about`]);
    const handled: Handled[] = [];
    let enqueued = -1;
    const outcome = await crawlWithSitemaps({
      seeds: [{ url: `${site.base}/`, label: 'HOME' }],
      plugin: { priorityScale: 0 },
      crawler: {
        handlers: {
          HOME: async (page) => {
            enqueued = await page.enqueueLinks({
              selector: 'a.product',
              label: 'PRODUCT',
              userData: { from: 'home' },
              priority: 3,
            });
          },
          PRODUCT: noting('PRODUCT', handled),
          default: noting('default', handled),
        },
      },
    });
    expect(outcome.errors).toEqual([]);
    expect(site.paths()).toEqual(['/robots.txt', '/sitemap.xml', '/', '/p/1', '/p/2', '/about']);
    expect(enqueued).toBe(2);
    expect(outcome.skips.filter((skip) => skip.reason === 'duplicate')).toEqual([]);
    expect(byPath(handled)).toEqual([
      { route: 'default', path: '/about', label: undefined, userData: {}, priority: 0 },
      { route: 'PRODUCT', path: '/p/1', label: 'PRODUCT', userData: { from: 'home' }, priority: 3 },
      { route: 'PRODUCT', path: '/p/2', label: 'PRODUCT', userData: { from: 'home' }, priority: 3 },
    ]);
  });

  it('a page already fetched is not fetched again: the later enqueue is a duplicate (the reason for the label option)', async () => {
    // With the default priorityScale the listed pages (5) come before the seed (0), unlabelled.
    const site = await shop((b) => [`${b}/p/1`, `${b}/p/2`]);
    const handled: Handled[] = [];
    const outcome = await crawlWithSitemaps({
      seeds: [{ url: `${site.base}/`, label: 'HOME' }],
      crawler: {
        handlers: {
          HOME: (page) => page.enqueueLinks({ selector: 'a.product', label: 'PRODUCT' }),
          PRODUCT: noting('PRODUCT', handled),
          default: noting('default', handled),
        },
      },
    });
    expect(site.paths()).toEqual(['/robots.txt', '/sitemap.xml', '/p/1', '/p/2', '/']);
    expect(byPath(handled).map((h) => [h.route, h.path])).toEqual([
      ['default', '/p/1'],
      ['default', '/p/2'],
    ]);
    expect(outcome.skips.filter((skip) => skip.reason === 'duplicate').map((skip) => skip.url)).toEqual([
      `${site.base}/p/1`,
      `${site.base}/p/2`,
    ]);
  });
});

describe('typed routes', () => {
  it('sitemaps<Routes>() takes only the routes’ labels and userData types (checked by pnpm typecheck)', () => {
    type Routes = { PRODUCT: { category: string }; CATEGORY: { page: number } };
    const typed = () => {
      sitemaps<Routes>({ label: 'PRODUCT', userData: { category: 'tools' } });
      sitemaps<Routes>({ label: (record) => (record.url.includes('/p/') ? 'PRODUCT' : undefined) });
      // @ts-expect-error: no such label
      sitemaps<Routes>({ label: 'PRODCT' });
      // @ts-expect-error: no route has this userData
      sitemaps<Routes>({ userData: { colour: 'red' } });
      const crawler = createCrawler<Routes>({
        userAgent: UA,
        plugins: [sitemaps<Routes>({ label: 'PRODUCT', userData: () => ({ category: 'unknown' }) })],
        handlers: { PRODUCT: () => {}, CATEGORY: () => {} },
      });
      expectTypeOf(crawler.enqueue).parameter(1).not.toBeAny();
      // Untyped, as before: any label, any plain userData.
      sitemaps({ label: 'ANYTHING', userData: { a: 1 } });
    };
    expect(typeof typed).toBe('function');
  });
});
