import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crawlWithSitemaps } from './helpers/crawl.js';
import { billionLaughs, pageUrls, sitemapIndex, urlset } from './helpers/fixtures.js';
import { gzipFile, useServers } from './helpers/server.js';

const serve = useServers();

describe('sitemaps() limits', () => {
  it('sitemaps.org: reads the first 50,000 URLs of a file of 50,010 and reports the rest in one sitemap-limit skip', async () => {
    const site = await serve({});
    site.routes = {
      '/robots.txt': `User-agent: *\nSitemap: ${site.base}/big.xml\n`,
      '/big.xml': urlset(pageUrls(site.base, 50_010)),
    };
    const outcome = await crawlWithSitemaps({ plugin: { origins: [site.base], enqueuePages: false } });
    expect(outcome.urls).toHaveLength(50_000);
    expect(outcome.urls.at(-1)).toBe(`${site.base}/p/49999`);
    const limits = outcome.skips.filter((s) => s.reason === 'sitemap-limit');
    expect(limits).toEqual([
      {
        url: `${site.base}/big.xml`,
        reason: 'sitemap-limit',
        plugin: 'sitemap',
        detail: `10 entries of sitemap ${site.base}/big.xml past maxUrlsPerFile (50000) not read`,
      },
    ]);
    expect(outcome.skips).toHaveLength(1);
  });

  it('cuts a file past maxBytesPerFile, keeps the entries complete before the cut, and reports it once', async () => {
    const site = await serve({});
    const urls = pageUrls(site.base, 1000);
    site.routes = {
      '/robots.txt': `User-agent: *\nSitemap: ${site.base}/s.xml\nSitemap: ${site.base}/s.xml.gz\n`,
      '/s.xml': urlset(urls),
      '/s.xml.gz': gzipFile(urlset(pageUrls(site.base, 1000, '/gz/'))),
    };
    const outcome = await crawlWithSitemaps({
      plugin: { origins: [site.base], enqueuePages: false, maxBytesPerFile: 10_000 },
    });
    const plain = outcome.urls.filter((u) => u.includes('/p/'));
    const gz = outcome.urls.filter((u) => u.includes('/gz/'));
    expect(plain.length).toBeGreaterThan(100);
    expect(plain.length).toBeLessThan(1000);
    expect(plain).toEqual(urls.slice(0, plain.length));
    expect(gz.length).toBeGreaterThan(100);
    expect(gz.length).toBeLessThan(1000);
    expect(outcome.skips.filter((s) => s.reason === 'sitemap-limit').map((s) => [s.url, s.detail])).toEqual([
      [
        `${site.base}/s.xml`,
        'sitemap larger than maxBytesPerFile (10000 bytes): only the entries complete before the cut were read',
      ],
      [
        `${site.base}/s.xml.gz`,
        'sitemap larger than maxBytesPerFile (10000 bytes decompressed): only the entries complete before the cut were read',
      ],
    ]);
    expect(outcome.errors).toEqual([]);
  });

  it('caps index nesting at maxDepth: deeper sitemaps are skipped as sitemap-limit and never fetched', async () => {
    const site = await serve({});
    const b = site.base;
    site.routes = {
      '/robots.txt': `User-agent: *\nSitemap: ${b}/i0.xml\n`,
      '/i0.xml': sitemapIndex([`${b}/i1.xml`]),
      '/i1.xml': sitemapIndex([`${b}/i2.xml`, `${b}/leaf1.xml`]),
      '/i2.xml': sitemapIndex([`${b}/leaf2.xml`]),
      '/leaf1.xml': urlset([`${b}/one`]),
      '/leaf2.xml': urlset([`${b}/two`]),
    };
    const outcome = await crawlWithSitemaps({ plugin: { origins: [b], enqueuePages: false, maxDepth: 1 } });
    expect(outcome.urls).toEqual([]);
    expect(site.paths()).toEqual(['/robots.txt', '/i0.xml', '/i1.xml']);
    expect(outcome.skips).toMatchObject([
      {
        url: `${b}/i2.xml`,
        reason: 'sitemap-limit',
        detail: `2 entries of sitemap ${b}/i1.xml are sitemaps nested deeper than maxDepth 1, e.g. this one`,
      },
    ]);
    const deeper = await crawlWithSitemaps({ plugin: { origins: [b], enqueuePages: false, maxDepth: 2 } });
    expect(deeper.urls).toEqual([`${b}/one`]);
    const deepest = await crawlWithSitemaps({ plugin: { origins: [b], enqueuePages: false } });
    expect(deepest.urls.sort()).toEqual([`${b}/one`, `${b}/two`]);
  });

  it('ends a cycle (an index listing itself, a child listing its parent) as duplicate skips, each file fetched once', async () => {
    const site = await serve({});
    const b = site.base;
    site.routes = {
      '/robots.txt': `User-agent: *\nSitemap: ${b}/index.xml\n`,
      '/index.xml': sitemapIndex([`${b}/index.xml`, `${b}/child.xml`]),
      '/child.xml': sitemapIndex([`${b}/index.xml`, `${b}/leaf.xml`]),
      '/leaf.xml': urlset([`${b}/page`]),
    };
    const outcome = await crawlWithSitemaps({ plugin: { origins: [b], enqueuePages: false } });
    expect(outcome.urls).toEqual([`${b}/page`]);
    expect(site.paths()).toEqual(['/robots.txt', '/index.xml', '/child.xml', '/leaf.xml']);
    expect(outcome.skips.map((s) => [s.url, s.reason])).toEqual([
      [`${b}/index.xml`, 'duplicate'],
      [`${b}/index.xml`, 'duplicate'],
    ]);
  });
});

describe('sitemaps() bad input', () => {
  it('reports a 404, malformed XML, a partial file, billion laughs, a gzip bomb, a self-index and an HTML page, while the good sitemap and the partial file’s whole entries still yield', async () => {
    const site = await serve({});
    const b = site.base;
    const bomb = gzipSync(Buffer.alloc(60 * 1024 * 1024), { level: 9 });
    const sitemapsDeclared = [
      'missing.xml',
      'malformed.xml',
      'cut.xml',
      'laughs.xml',
      'bomb.xml.gz',
      'self.xml',
      'page.html',
      'good.xml',
    ];
    site.routes = {
      '/robots.txt': `User-agent: *\n${sitemapsDeclared.map((s) => `Sitemap: ${b}/${s}`).join('\n')}\n`,
      '/malformed.xml': `<urlset><url><loc>${b}/m</lox></url></urlset>`,
      // Cut by a proxy: two whole entries, then half of one, and no end tag.
      '/cut.xml': `<urlset><url><loc>${b}/c1</loc></url><url><loc>${b}/c2</loc></url><url><loc>${b}/c`,
      '/laughs.xml': billionLaughs('<url><loc>&lol9;</loc></url>'),
      '/bomb.xml.gz': { body: bomb, type: 'application/gzip' },
      '/self.xml': sitemapIndex([`${b}/self.xml`]),
      '/page.html': '<!DOCTYPE html><html><body><a href="/x">x</a></body></html>',
      '/good.xml': urlset([`${b}/good`]),
    };
    const before = process.memoryUsage().rss;
    const outcome = await crawlWithSitemaps({ plugin: { origins: [b], enqueuePages: false } });
    expect(process.memoryUsage().rss - before).toBeLessThan(400 * 1024 * 1024);
    expect([...outcome.urls].sort()).toEqual([`${b}/c1`, `${b}/c2`, `${b}/good`]);
    const cutAt = `<urlset><url><loc>${b}/c1</loc></url><url><loc>${b}/c2</loc></url>`.length;
    expect(
      outcome.errors.map((e) => [
        e.url,
        e.error.message.replace(/: malformed XML: .*;/, ': malformed XML: …;'),
        e.stage,
      ]),
    ).toEqual([
      [`${b}/missing.xml`, `sitemap ${b}/missing.xml: HTTP 404`, 'processor'],
      [
        `${b}/malformed.xml`,
        expect.stringMatching(
          /^sitemap \S+\/malformed.xml: malformed XML: Expected closing tag 'loc' .* instead of closing tag 'lox'/,
        ),
        'processor',
      ],
      [
        `${b}/cut.xml`,
        `sitemap ${b}/cut.xml is partial: malformed XML: …; the entries complete before byte ${cutAt} were read`,
        'processor',
      ],
      [`${b}/bomb.xml.gz`, `sitemap ${b}/bomb.xml.gz: not a sitemap: binary data`, 'processor'],
      [`${b}/page.html`, `sitemap ${b}/page.html: not a sitemap: an HTML page`, 'processor'],
    ]);
    expect(outcome.stats.errors).toBe(5);
    expect(outcome.skips.map((s) => [s.url, s.reason])).toEqual([
      ['&lol9;', 'invalid-url'],
      [`${b}/bomb.xml.gz`, 'sitemap-limit'],
      [`${b}/self.xml`, 'duplicate'],
    ]);
    expect(outcome.skips[1]!.detail).toContain(`${50 * 1024 * 1024} bytes decompressed`);
  });

  it('reads URLs with Unicode spaces around them (in CDATA or not), and a text file’s good lines around a bad first line (reported)', async () => {
    const site = await serve({});
    const b = site.base;
    site.routes = {
      '/robots.txt': `User-agent: *\nSitemap: ${b}/spaces.xml\nSitemap: ${b}/list.txt\n`,
      '/spaces.xml': `<urlset><url><loc>\u00a0${b}/nbsp\u00a0</loc></url><url><loc><![CDATA[\u3000${b}/ideographic\u2009]]></loc></url><url><loc>\u200b${b}/zero-width</loc></url></urlset>`,
      '/list.txt': { body: `www.example.com/catalog?item=1\n${b}/t1\n\u00a0${b}/t2\u00a0\n`, type: 'text/plain' },
    };
    const outcome = await crawlWithSitemaps({ plugin: { origins: [b], enqueuePages: false } });
    expect([...outcome.urls].sort()).toEqual([
      `${b}/ideographic`,
      `${b}/nbsp`,
      `${b}/t1`,
      `${b}/t2`,
      `${b}/zero-width`,
    ]);
    expect(outcome.errors).toEqual([]);
    expect(outcome.skips.map((s) => [s.url, s.reason])).toEqual([['www.example.com/catalog?item=1', 'invalid-url']]);
  });

  it('keeps a billion-laughs URL literal: nothing expands, time and memory stay bounded', async () => {
    const site = await serve({});
    site.routes = {
      '/robots.txt': `User-agent: *\nSitemap: ${site.base}/laughs.xml\n`,
      '/laughs.xml': billionLaughs(`<url><loc>${site.base}/&lol9;</loc></url>`),
    };
    const before = process.memoryUsage().rss;
    const started = performance.now();
    const outcome = await crawlWithSitemaps({ plugin: { origins: [site.base], enqueuePages: false } });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * 1024 * 1024);
    expect(outcome.records).toEqual([{ url: `${site.base}/&lol9;`, sitemap: `${site.base}/laughs.xml` }]);
  });

  it('a sitemap that answers 5xx is retried like a page, then reported', async () => {
    const site = await serve({
      '/robots.txt': 'User-agent: *\nAllow: /\n',
      '/down.xml': { body: 'down', status: 503 },
    });
    const outcome = await crawlWithSitemaps({
      plugin: { origins: [], sitemapUrls: [`${site.base}/down.xml`], enqueuePages: false },
      crawler: { maxRetries: 1, backoffBaseMs: 10 },
    });
    expect(site.paths()).toEqual(['/robots.txt', '/down.xml', '/down.xml']);
    expect(outcome.errors.map((e) => [e.willRetry, e.error.message])).toEqual([
      [true, `GET ${site.base}/down.xml: HTTP 503`],
      [false, `sitemap ${site.base}/down.xml: HTTP 503`],
    ]);
  });
});
