import { gunzipSync } from 'node:zlib';
import { parseRobotsTxt } from '@politely/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getText, hrefs, rawGet, UA } from '../../../test/support/raw-http.js';
import type { LocalWeb } from '../src/index.js';
import { DEMO_HOST_NAMES, demoProducts, minGapMs, startDemoWeb, violations } from '../src/index.js';

let web: LocalWeb;

beforeAll(async () => {
  web = await startDemoWeb();
});

afterAll(async () => {
  await web.close();
});

describe('startDemoWeb', () => {
  it('puts each named host on its own loopback address, all on one port', () => {
    expect(web.hosts.map((host) => host.name)).toEqual([...DEMO_HOST_NAMES]);
    const addresses = web.hosts.map((host) => host.address);
    expect(new Set(addresses).size).toBe(addresses.length);
    for (const host of web.hosts) {
      expect(host.address).toMatch(/^127\.0\.0\.([2-9]|\d\d+)$/);
      expect(host.origin).toBe(`http://${host.address}:${host.port}`);
    }
    expect(web.entryUrl).toBe(`${web.host('hub').origin}/`);
  });

  it('serves robots.txt with groups, wildcards, $, Allow over Disallow, Crawl-delay and Sitemap lines', async () => {
    const shop = web.host('shop');
    const { status, text, headers } = await getText(`${shop.origin}/robots.txt`);
    expect(status).toBe(200);
    expect(headers['content-type']).toMatch(/^text\/plain/);
    expect(text).toBe(shop.robotsTxt);
    const robots = parseRobotsTxt(text);
    expect(robots.crawlDelay(UA)).toBe(0.2);
    expect(robots.crawlDelay('SomeOtherBot/1.0')).toBe(0.5);
    expect(robots.isAllowed(`${shop.origin}/account/help`, UA)).toBe(true);
    expect(robots.isAllowed(`${shop.origin}/account/orders`, UA)).toBe(false);
    expect(robots.isAllowed(`${shop.origin}/category/garden?sort=price`, UA)).toBe(false);
    expect(robots.isAllowed(`${shop.origin}/api/stock.json`, UA)).toBe(false);
    expect(robots.isAllowed(`${shop.origin}/api/stock.json?fields=sku`, UA)).toBe(true);
    expect(robots.isAllowed(`${shop.origin}/api/public/catalog.json`, UA)).toBe(true);
    expect(robots.isAllowed(`${shop.origin}/products/x`, 'GreedyBot')).toBe(false);
    expect(robots.sitemaps).toEqual([`${shop.origin}/sitemap_index.xml`]);
    expect(shop.crawlDelaySeconds).toBe(0.2);
    expect(shop.disallowedPrefixes).toContain('/*.json$');
  });

  it('declares a sitemap on another host (docs → cdn) and a sitemap under a disallowed path (hub)', () => {
    expect(web.host('docs').sitemaps).toEqual([`${web.host('cdn').origin}/sitemaps/docs.xml`]);
    expect(web.host('hub').sitemaps).toContain(`${web.host('hub').origin}/admin/sitemap.xml`);
    expect(web.host('hub').disallowedKnownPaths).toContain('/admin/sitemap.xml');
  });

  it('serves product pages with the catalogue data in microdata', async () => {
    const product = demoProducts().find((p) => !p.sitemapOnly);
    if (product === undefined) throw new Error('no product');
    const { status, text } = await getText(web.url('shop', product.path));
    expect(status).toBe(200);
    expect(text).toContain('itemtype="https://schema.org/Product"');
    expect(text).toContain(`<dd class="sku" itemprop="sku">${product.sku}</dd>`);
    expect(text).toContain(`itemprop="price" content="${product.price.toFixed(2)}"`);
    expect(text).toContain(`itemprop="ratingValue">${product.rating.toFixed(1)}</span>`);
    expect(text.length).toBeGreaterThan(1500);
  });

  it('serves a sitemap index that points at a plain urlset and a binary gzip sitemap', async () => {
    const shop = web.host('shop').origin;
    const index = await getText(`${shop}/sitemap_index.xml`);
    expect(index.text).toContain('<sitemapindex');
    expect(index.text).toContain(`<loc>${shop}/sitemaps/products.xml</loc>`);
    expect(index.text).toContain(`<loc>${shop}/sitemaps/pages.xml.gz</loc>`);
    const gz = await rawGet(`${shop}/sitemaps/pages.xml.gz`, { 'accept-encoding': 'gzip' });
    expect(gz.status).toBe(200);
    expect(gz.headers['content-type']).toBe('application/gzip');
    expect(gz.headers['content-encoding']).toBeUndefined();
    expect([...gz.body.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    const xml = gunzipSync(gz.body).toString('utf8');
    expect(xml.startsWith('<?xml')).toBe(true);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const products = await getText(`${shop}/sitemaps/products.xml`);
    expect(products.text.match(/<url>/g)).toHaveLength(demoProducts().length);
  });

  it('serves a plain-text sitemap and RSS and Atom feeds on the news host', async () => {
    const news = web.host('news').origin;
    const text = await getText(`${news}/sitemap.txt`);
    expect(text.headers['content-type']).toMatch(/^text\/plain/);
    const lines = text.text.trim().split('\n');
    expect(lines.every((line) => line.startsWith(`${news}/`))).toBe(true);
    expect((await getText(`${news}/feed.xml`)).text).toContain('<rss version="2.0">');
    expect((await getText(`${news}/atom.xml`)).text).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
  });

  it('has a host whose robots.txt answers 503 and one whose robots.txt is missing', async () => {
    const status = web.host('status');
    expect((await rawGet(`${status.origin}/robots.txt`)).status).toBe(503);
    expect(status.robotsTxt).toBeNull();
    expect(status.expectedAllowedPaths).toEqual([]);
    expect(status.disallowedKnownPaths).toContain('/');
    expect((await rawGet(`${web.host('cdn').origin}/robots.txt`)).status).toBe(404);
    expect(web.host('cdn').disallowedPrefixes).toEqual([]);
  });

  it('follows a redirect chain hop by hop to its page, and redirects across hosts', async () => {
    const legacy = web.host('legacy').origin;
    let url = `${legacy}/chain/start`;
    const statuses: number[] = [];
    for (let hop = 0; hop < 10; hop++) {
      const response = await rawGet(url);
      statuses.push(response.status);
      const location = response.headers['location'];
      if (typeof location !== 'string') break;
      url = new URL(location, url).href;
    }
    expect(statuses).toEqual([302, 301, 307, 200]);
    expect(url).toBe(`${legacy}/chain/end`);
    const moved = await rawGet(`${legacy}/shop`);
    expect(moved.status).toBe(301);
    expect(moved.headers['location']).toBe(`${web.host('shop').origin}/`);
    const intoPrivate = await rawGet(`${legacy}/to-private`);
    expect(intoPrivate.headers['location']).toBe('/private/archive');
    expect(web.host('legacy').disallowedKnownPaths).toContain('/private/archive');
  });

  it('has an endless calendar: every month links the next one', async () => {
    const events = web.host('events').origin;
    let url = `${events}/calendar/2026/11`;
    for (let month = 0; month < 30; month++) {
      const { status, text } = await getText(url);
      expect(status).toBe(200);
      const links = hrefs(text, url).filter((href) => href.includes('/calendar/'));
      const next = links.find((href) => href > url);
      expect(links.some((href) => href < url)).toBe(true);
      if (next === undefined) throw new Error(`no next month on ${url}`);
      url = next;
    }
    expect(url).toBe(`${events}/calendar/2029/05`);
    expect(web.host('events').trapPrefixes).toEqual(['/calendar/']);
  });

  it('gzips text responses for clients that accept gzip', async () => {
    const response = await rawGet(`${web.host('news').origin}/`, { 'accept-encoding': 'gzip, br' });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.body).toString('utf8')).toContain('<!doctype html>');
    const plain = await rawGet(`${web.host('news').origin}/`);
    expect(plain.headers['content-encoding']).toBeUndefined();
  });
});

describe('manifest', () => {
  it('lists a modest web: 100–200 allowed pages, products, traps and exclusions', () => {
    const total = web.hosts.reduce((sum, host) => sum + host.expectedAllowedPaths.length, 0);
    expect(total).toBeGreaterThanOrEqual(100);
    expect(total).toBeLessThanOrEqual(200);
    const shop = web.host('shop');
    const listed = demoProducts().filter((p) => !p.sitemapOnly);
    for (const product of listed) expect(shop.expectedAllowedPaths).toContain(product.path);
    expect(shop.expectedAllowedPaths).toContain('/account/help');
    expect(shop.expectedAllowedPaths).toContain('/api/stock.json?fields=sku');
    expect(shop.expectedAllowedPaths).not.toContain('/cart');
    expect(shop.disallowedKnownPaths).toEqual(
      expect.arrayContaining(['/account/', '/api/stock.json', '/checkout/gift-cards', '/category/garden?sort=price']),
    );
    expect(shop.sitemapOnlyPaths).toEqual(
      demoProducts()
        .filter((p) => p.sitemapOnly)
        .map((p) => p.path)
        .sort(),
    );
    const docs = web.host('docs');
    expect(docs.expectedAllowedPaths).toContain('/v1/migration');
    expect(docs.disallowedKnownPaths).toEqual(
      expect.arrayContaining(['/v1/migration/details', '/guide/sitemaps.pdf', '/search?q=robots']),
    );
    const news = web.host('news');
    expect(news.nofollowPaths).toContain('/about/legal/terms-2019');
    expect(news.nofollowPaths.filter((path) => path.endsWith('/comments'))).toHaveLength(24);
    expect(news.disallowedKnownPaths).toContain('/drafts/spring-preview');
    expect(web.host('events').expectedAllowedPaths.some((path) => path.startsWith('/calendar/'))).toBe(false);
  });

  it('never lists a disallowed path as expected, judged by robots.txt over HTTP', async () => {
    for (const host of web.hosts) {
      const response = await rawGet(`${host.origin}/robots.txt`);
      if (response.status !== 200) continue;
      const robots = parseRobotsTxt(response.body);
      for (const path of host.expectedAllowedPaths) expect(robots.isAllowed(host.origin + path, UA), path).toBe(true);
      for (const path of host.disallowedKnownPaths) expect(robots.isAllowed(host.origin + path, UA), path).toBe(false);
    }
  });

  it('serves every expected path (only the one deliberately broken link is a 404)', async () => {
    const failures: string[] = [];
    await Promise.all(
      web.hosts.flatMap((host) =>
        host.expectedAllowedPaths.map(async (path) => {
          const { status } = await rawGet(host.origin + path);
          if (status >= 400) failures.push(`${host.name} ${path} ${status}`);
        }),
      ),
    );
    expect(failures).toEqual(['news /articles/the-story-we-pulled 404']);
  });
});

describe('request log', () => {
  it('records method, path, user agent, status and both clocks, per origin', async () => {
    web.resetLogs();
    const docs = web.host('docs').origin;
    const before = Date.now();
    await rawGet(`${docs}/faq`);
    await rawGet(`${docs}/no-such-page`);
    const log = web.requestLog(docs);
    expect(log.map(({ method, path, userAgent, status, host }) => ({ method, path, userAgent, status, host }))).toEqual(
      [
        { method: 'GET', path: '/faq', userAgent: UA, status: 200, host: 'docs' },
        { method: 'GET', path: '/no-such-page', userAgent: UA, status: 404, host: 'docs' },
      ],
    );
    expect(log[0]?.dateMs).toBeGreaterThanOrEqual(before);
    expect(log[1]?.atMs).toBeGreaterThanOrEqual(log[0]?.atMs ?? Infinity);
    expect(web.requestLog()).toHaveLength(2);
    expect(web.requestLog(`${web.host('shop').origin}/`)).toEqual([]);
    web.resetLogs();
    expect(web.requestLog()).toEqual([]);
  });

  it('lets violations() find requests robots.txt disallows, including any page of the 503 host', async () => {
    web.resetLogs();
    await rawGet(web.url('shop', '/robots.txt'));
    await rawGet(web.url('shop', '/products/' + (demoProducts()[0]?.slug ?? '')));
    await rawGet(web.url('shop', '/cart?add=PD-KIT-1001'));
    await rawGet(web.url('status', '/robots.txt'));
    await rawGet(web.url('status', '/'));
    await rawGet(web.url('cdn', '/downloads/'));
    const found = violations(web, UA).map((entry) => `${entry.host} ${entry.path}`);
    expect(found).toEqual(['shop /cart?add=PD-KIT-1001', 'status /']);
    expect(violations(web, 'GreedyBot/2.0').map((entry) => entry.path)).toContain(
      `/products/${demoProducts()[0]?.slug ?? ''}`,
    );
    web.resetLogs();
  });

  it('measures the smallest gap between requests to one host with minGapMs()', async () => {
    web.resetLogs();
    await rawGet(web.url('docs', '/'));
    await rawGet(web.url('shop', '/'));
    await new Promise((resolve) => setTimeout(resolve, 60));
    await rawGet(web.url('docs', '/faq'));
    expect(minGapMs(web.requestLog())).toBeGreaterThanOrEqual(50);
    expect(minGapMs(web.requestLog(web.host('shop').origin))).toBe(Infinity);
    web.resetLogs();
  });
});
