// Writing real crawlers: labels and userData carried with each request (seeds, page.enqueue,
// crawler.enqueue, page.enqueueLinks, redirects), routes by label, and enqueueLinks through the
// same nofollow, robots, scope and dedupe rules as every link. Judged by a loopback shop's own
// request log and by what the handlers saw.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PolitelyError } from '@politely/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type CrawlerOptions,
  createCrawler,
  type ErrorEvent,
  MAX_USER_DATA_BYTES,
  type PageContext,
  type SkipEvent,
} from '../../src/index.js';
import { expectInvalidOption } from '../expect-invalid-option.js';

const UA = 'RouteBot/1.0 (+http://example.invalid/bot)';
let server: Server;
let base: string;
const requested: string[] = [];
const headersOf = new Map<string, import('node:http').IncomingHttpHeaders>();

const html = (body: string): string => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;
const PAGES: Record<string, string> = {
  '/': html(
    '<a class="category" href="/cat/garden">Garden</a><a class="category" href="/cat/tools">Tools</a><a href="/about">About</a>',
  ),
  '/cat/garden': html(
    '<ul><li><a class="product" href="/p/garden-1">1</a></li><li><a class="product" href="p/../../p/garden-2#reviews">2</a></li>' +
      '<li><a class="product" rel="nofollow" href="/p/garden-secret">secret</a></li></ul><nav><a href="/next">next</a></nav>',
  ),
  '/cat/tools': html(
    '<div class="product"><a href="/p/tools-1">1</a></div><a class="product" href="/p/tools-2">2</a><nav><a href="/next">next</a></nav>',
  ),
  '/about': html('<p>about</p>'),
  '/next': html('<p>next</p>'),
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    requested.push(path);
    headersOf.set(path, req.headers);
    if (path === '/robots.txt')
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /p/tools-2\n');
    const redirect = /^\/go\/(.+)$/.exec(path);
    if (redirect !== null) return void res.writeHead(302, { location: `/p/${redirect[1]}` }).end();
    const page =
      PAGES[path] ?? (path.startsWith('/p/') ? html(`<h1 itemprop="name">${path.slice(3)}</h1>`) : undefined);
    if (page === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  requested.length = 0;
  headersOf.clear();
});

interface Seen {
  readonly route: string;
  readonly path: string;
  readonly requested: string;
  readonly label: string | undefined;
  readonly userData: Readonly<Record<string, unknown>>;
  readonly depth: number;
}

const pathOf = (url: string): string => new URL(url).pathname;

async function crawl(
  options: Omit<CrawlerOptions, 'userAgent'>,
  during?: (crawler: ReturnType<typeof createCrawler>) => Promise<void>,
) {
  const crawler = createCrawler({ userAgent: UA, allowNet: ['127.0.0.0/8'], minDelayMs: 0, maxPages: 100, ...options });
  const skips: SkipEvent[] = [];
  const errors: ErrorEvent[] = [];
  crawler.on('skip', (skip) => skips.push(skip));
  crawler.on('error', (error) => errors.push(error));
  await during?.(crawler);
  const stats = await crawler.run();
  return { stats, skips, errors };
}

/** A handler that writes what it saw under `route` to `seen`. */
const recorder = (route: string, seen: Seen[]) => (page: PageContext) =>
  void seen.push({
    route,
    path: pathOf(page.finalUrl),
    requested: pathOf(page.request.url),
    label: page.request.label,
    userData: page.request.userData,
    depth: page.request.depth,
  });

describe('routes, labels and userData', () => {
  it('a listing → detail crawl: each route gets its pages, userData travels, and links followed by themselves go to default', async () => {
    const seen: Seen[] = [];
    const counts: Record<string, number> = {};
    const { errors, skips } = await crawl({
      seeds: [{ url: `${base}/`, label: 'HOME', userData: { run: 7 } }],
      handlers: {
        HOME: async (page) => {
          recorder('HOME', seen)(page);
          for (const link of page.$('a.category').toArray()) {
            const name = page.$(link).text();
            await page.enqueue(new URL(page.$(link).attr('href')!, page.finalUrl).href, {
              label: 'CATEGORY',
              userData: { category: name, run: page.request.userData.run },
            });
          }
        },
        CATEGORY: async (page) => {
          recorder('CATEGORY', seen)(page);
          counts[pathOf(page.finalUrl)] = await page.enqueueLinks({
            selector: '.product',
            label: 'PRODUCT',
            userData: { category: page.request.userData.category },
            priority: 5,
          });
        },
        PRODUCT: recorder('PRODUCT', seen),
        default: recorder('default', seen),
      },
    });
    expect(errors).toEqual([]);
    const byRoute = (route: string) =>
      seen.filter((s) => s.route === route).sort((a, b) => a.path.localeCompare(b.path));
    expect(byRoute('HOME')).toEqual([
      { route: 'HOME', path: '/', requested: '/', label: 'HOME', userData: { run: 7 }, depth: 0 },
    ]);
    expect(byRoute('CATEGORY').map((s) => [s.path, s.userData])).toEqual([
      ['/cat/garden', { category: 'Garden', run: 7 }],
      ['/cat/tools', { category: 'Tools', run: 7 }],
    ]);
    // Under `.product`: the anchor itself or inside it, resolved like every link (fragment off).
    // The nofollow link and the robots-disallowed one are not enqueued, and do not count.
    expect(byRoute('PRODUCT').map((s) => [s.path, s.label, s.userData, s.depth])).toEqual([
      ['/p/garden-1', 'PRODUCT', { category: 'Garden' }, 2],
      ['/p/garden-2', 'PRODUCT', { category: 'Garden' }, 2],
      ['/p/tools-1', 'PRODUCT', { category: 'Tools' }, 2],
    ]);
    expect(counts).toEqual({ '/cat/garden': 2, '/cat/tools': 1 });
    // Links the crawler followed by itself carry no label and no data.
    expect(byRoute('default').map((s) => [s.path, s.label, s.userData])).toEqual([
      ['/about', undefined, {}],
      ['/next', undefined, {}],
    ]);
    expect(requested).not.toContain('/p/garden-secret');
    expect(requested).not.toContain('/p/tools-2');
    expect(skips).toContainEqual(expect.objectContaining({ url: `${base}/p/tools-2`, reason: 'robots' }));
    expect(skips).toContainEqual(expect.objectContaining({ url: `${base}/p/garden-secret`, reason: 'nofollow' }));
  });

  it('enqueueLinks takes every extracted link by default, a filter, and resolves with how many were new', async () => {
    const results: number[] = [];
    const seen: Seen[] = [];
    await crawl({
      seeds: [`${base}/cat/garden`],
      followLinks: false,
      handlers: {
        default: async (page) => {
          results.push(await page.enqueueLinks({ filter: (url) => url.includes('/p/'), label: 'PRODUCT' }));
          results.push(await page.enqueueLinks({ label: 'OTHER' }));
        },
        PRODUCT: recorder('PRODUCT', seen),
        OTHER: recorder('OTHER', seen),
      },
    });
    // garden-1 and garden-2 (the nofollow one never), then only /next is new.
    expect(results).toEqual([2, 1]);
    expect(seen.map((s) => `${s.route} ${s.path}`).sort()).toEqual([
      'OTHER /next',
      'PRODUCT /p/garden-1',
      'PRODUCT /p/garden-2',
    ]);
  });

  it('a page without a label and no default route is an error event, and the crawl goes on', async () => {
    const seen: Seen[] = [];
    const { errors, stats } = await crawl({
      seeds: [`${base}/next`, { url: `${base}/p/garden-1`, label: 'PRODUCT' }],
      followLinks: false,
      handlers: { PRODUCT: recorder('PRODUCT', seen) },
    });
    expect(seen.map((s) => s.path)).toEqual(['/p/garden-1']);
    expect(errors.map((e) => [pathOf(e.url), e.stage])).toEqual([['/next', 'handler']]);
    expect(errors[0]!.error).toMatchObject({
      code: 'ERR_NO_ROUTE',
      message: expect.stringContaining('without a label'),
    });
    expect(stats.pages).toBe(2);
  });

  it('a seed whose label names no route is refused when the crawler is made, with the nearest label', () => {
    expectInvalidOption(
      () =>
        createCrawler({
          userAgent: UA,
          allowNet: ['127.0.0.0/8'],
          seeds: [{ url: `${base}/p/garden-1`, label: 'PRODCT' }],
          handlers: { PRODUCT: () => {}, default: () => {} },
        }),
      'label "PRODCT" names no route in handlers (did you mean "PRODUCT"?)',
    );
  });

  it('a label no route takes is refused when it is queued, before any request for it, even with a default route', async () => {
    requested.length = 0;
    const thrown: unknown[] = [];
    const crawler = createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      minDelayMs: 0,
      seeds: [`${base}/cat/garden`],
      followLinks: false,
      handlers: {
        default: async (page) => {
          await page.enqueueLinks({ selector: 'a.product', label: 'PRODCT' }).catch((error: unknown) => {
            thrown.push(error);
          });
        },
        PRODUCT: () => {},
      },
    });
    await expect(crawler.enqueue(`${base}/p/garden-1`, { label: 'OTHER' })).rejects.toMatchObject({
      code: 'ERR_INVALID_INPUT',
      message: expect.stringContaining('label "OTHER" names no route in handlers'),
    });
    await crawler.run();
    expect(thrown).toHaveLength(1);
    expect(thrown[0]).toBeInstanceOf(PolitelyError);
    expect(thrown[0]).toMatchObject({
      code: 'ERR_INVALID_INPUT',
      message: expect.stringContaining('label "PRODCT" names no route in handlers (did you mean "PRODUCT"?)'),
    });
    // Nothing was asked of the server for the refused labels: only robots.txt and the category page.
    expect(requested.filter((path) => path.startsWith('/p/'))).toEqual([]);
    expect(requested).toContain('/cat/garden');
  });

  it('a redirect hop keeps its request’s label and userData', async () => {
    const seen: Seen[] = [];
    await crawl({
      seeds: [{ url: `${base}/go/garden-1`, label: 'PRODUCT', userData: { from: 'feed' } }],
      followLinks: false,
      handlers: { PRODUCT: recorder('PRODUCT', seen) },
    });
    expect(seen).toEqual([
      {
        route: 'PRODUCT',
        path: '/p/garden-1',
        requested: '/go/garden-1',
        label: 'PRODUCT',
        userData: { from: 'feed' },
        depth: 0,
      },
    ]);
    expect(requested).toEqual(['/robots.txt', '/go/garden-1', '/p/garden-1']);
  });

  it('crawler.enqueue adds labelled requests before and during run()', async () => {
    const seen: Seen[] = [];
    await crawl({ followLinks: false, handlers: { PRODUCT: recorder('PRODUCT', seen) } }, async (crawler) => {
      expect(await crawler.enqueue(`${base}/p/garden-1`, { label: 'PRODUCT', userData: { when: 'before' } })).toBe(1);
      const off = crawler.on('response', () => {
        off();
        void crawler.enqueue([`${base}/p/garden-2`, `${base}/p/tools-1`], {
          label: 'PRODUCT',
          userData: { when: 'during' },
        });
      });
    });
    expect(seen.map((s) => [s.path, s.userData]).sort()).toEqual([
      ['/p/garden-1', { when: 'before' }],
      ['/p/garden-2', { when: 'during' }],
      ['/p/tools-1', { when: 'during' }],
    ]);
  });
});

describe('per-request headers', () => {
  it('go with the request they were enqueued with (seeds, page.enqueue, crawler.enqueue, enqueueLinks), over the crawl-wide ones', async () => {
    await crawl(
      {
        seeds: [{ url: `${base}/`, headers: { 'X-Seed': 'home' } }],
        headers: { 'accept-language': 'en', 'x-crawl': 'all' },
        followLinks: false,
        handlers: {
          default: async (page) => {
            await page.enqueue(`${base}/about`, { headers: { 'Accept-Language': 'de' }, label: 'PLAIN' });
            await page.enqueueLinks({ selector: 'a.category', headers: { 'x-list': 'categories' }, label: 'PLAIN' });
          },
          PLAIN: () => {},
        },
      },
      async (crawler) =>
        void (await crawler.enqueue(`${base}/next`, { headers: { 'x-outside': '1' }, label: 'PLAIN' })),
    );
    expect(headersOf.get('/')).toMatchObject({ 'x-seed': 'home', 'accept-language': 'en', 'x-crawl': 'all' });
    expect(headersOf.get('/about')).toMatchObject({ 'accept-language': 'de', 'x-crawl': 'all' });
    expect(headersOf.get('/about')).not.toHaveProperty('x-seed');
    expect(headersOf.get('/cat/garden')).toMatchObject({ 'x-list': 'categories', 'accept-language': 'en' });
    expect(headersOf.get('/cat/tools')).toMatchObject({ 'x-list': 'categories' });
    expect(headersOf.get('/next')).toMatchObject({ 'x-outside': '1', 'user-agent': UA });
    // robots.txt gets the crawl-wide headers, never a request's own.
    expect(headersOf.get('/robots.txt')).toMatchObject({ 'x-crawl': 'all' });
    expect(headersOf.get('/robots.txt')).not.toHaveProperty('x-seed');
  });

  it('refuses a hop-by-hop header, Host, User-Agent or From with ERR_INVALID_INPUT naming the header', async () => {
    const crawler = createCrawler({ userAgent: UA, allowNet: ['127.0.0.0/8'] });
    for (const name of ['Connection', 'Transfer-Encoding', 'Host', 'User-Agent', 'From']) {
      const refusal = await crawler.enqueue(`${base}/`, { headers: { [name]: 'x' } }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refusal, name).toBeInstanceOf(PolitelyError);
      expect((refusal as PolitelyError).code).toBe('ERR_INVALID_INPUT');
      expect((refusal as Error).message).toContain(name.toLowerCase() === 'user-agent' ? 'User-Agent' : name);
    }
    await expect(crawler.enqueue(`${base}/`, { headers: { 'x-ok': 'a\r\nInjected: 1' } })).rejects.toThrow(/x-ok/i);
  });
});

describe('request data is checked where it enters', () => {
  it('userData past 64 KiB, or not plain JSON, is refused with an error naming the URL; the crawl goes on', async () => {
    const refusals: unknown[] = [];
    const { stats } = await crawl({
      seeds: [`${base}/about`],
      followLinks: false,
      handler: async (page) => {
        for (const userData of [
          { blob: 'x'.repeat(MAX_USER_DATA_BYTES) },
          { when: new Date(0) },
          { n: Number.NaN },
          { f: () => 1 } as unknown as Record<string, unknown>,
        ]) {
          await page.enqueue(`${base}/next`, { userData }).catch((error: unknown) => refusals.push(error));
        }
        await page.enqueue(`${base}/next`, { label: '' }).catch((error: unknown) => refusals.push(error));
      },
    });
    expect(refusals).toHaveLength(5);
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(PolitelyError);
      expect((refusal as PolitelyError).code).toBe('ERR_INVALID_INPUT');
      expect((refusal as Error).message).toContain(`${base}/next`);
    }
    const messages = refusals.map((r) => (r as Error).message);
    expect(messages[0]).toMatch(/userData is \d+ bytes as JSON, over the 65536-byte cap/);
    expect(messages[1]).toContain('userData.when is a Date');
    expect(messages[2]).toContain('userData.n is NaN');
    expect(messages[3]).toContain('userData.f is function');
    expect(messages[4]).toContain('label must be a non-empty string');
    expect(stats.pages).toBe(1);
    expect(requested).not.toContain('/next');
  });

  it('crawler.enqueue refuses bad data with ERR_INVALID_INPUT; bad seeds and route options with ERR_INVALID_OPTION', async () => {
    const crawler = createCrawler({ userAgent: UA, allowNet: ['127.0.0.0/8'] });
    await expect(
      crawler.enqueue(`${base}/`, { userData: [1, 2] as unknown as Record<string, unknown> }),
    ).rejects.toThrow(/userData must be a plain object, got an array/);
    expectInvalidOption(
      () => createCrawler({ userAgent: UA, seeds: [{ url: `${base}/`, label: 7 as unknown as string }] }),
      'label must be a non-empty string',
    );
    expectInvalidOption(
      () => createCrawler({ userAgent: UA, handler: () => {}, handlers: { default: () => {} } }),
      'either handler or handlers',
    );
    expectInvalidOption(
      () => createCrawler({ userAgent: UA, handlers: { PRODUCT: 'nope' as unknown as () => void } }),
      'handlers["PRODUCT"] must be a function',
    );
  });
});
