import { gzipSync } from 'node:zlib';
import { createCrawler } from '@politely/crawler';
import { sitemaps } from '@politely/sitemap';
import { describe, expect, it } from 'vitest';
import { crawlWithSitemaps, UA } from './helpers/crawl.js';
import { atom, pageUrls, rss, sitemapIndex, urlset } from './helpers/fixtures.js';
import { gzipFile, type Route, useServers } from './helpers/server.js';

const serve = useServers();

describe('sitemaps() seeding a crawl', () => {
  it("reads the Sitemap: lines of the seeds' robots.txt and crawls the pages listed, with no second robots.txt request", async () => {
    const site = await serve({ '/': 'home', '/a': 'page a', '/b': 'page b' });
    site.routes['/robots.txt'] = `User-agent: *\nAllow: /\nSitemap: ${site.base}/sitemap.xml\n`;
    site.routes['/sitemap.xml'] = urlset([`${site.base}/a`, `${site.base}/b`]);
    const outcome = await crawlWithSitemaps({ seeds: [`${site.base}/`] });
    expect(outcome.urls).toEqual([`${site.base}/a`, `${site.base}/b`]);
    expect(site.paths().filter((p) => p === '/robots.txt')).toHaveLength(1);
    expect(new Set(site.paths())).toEqual(new Set(['/robots.txt', '/sitemap.xml', '/', '/a', '/b']));
    // The sitemap is read before the pages of its host (its frontier priority is higher).
    expect(site.paths().indexOf('/sitemap.xml')).toBe(1);
    expect(outcome.stats).toMatchObject({ pages: 3, errors: 0 });
    expect(outcome.requests.find((r) => r.url === `${site.base}/sitemap.xml`)).toMatchObject({ kind: 'sitemap' });
  });

  it('reads every format: urlset, nested indexes, .gz, gzip by magic bytes, Content-Encoding gzip, text, RSS and Atom', async () => {
    const site = await serve({});
    const b = site.base;
    const gzipAsOctets: Route = { body: gzipSync(urlset([`${b}/magic`])), type: 'application/octet-stream' };
    const contentEncoded: Route = { body: gzipSync(urlset([`${b}/encoded`])), headers: { 'content-encoding': 'gzip' } };
    site.routes = {
      '/robots.txt': `User-agent: *\nAllow: /\nSitemap: ${b}/index.xml\nSitemap: ${b}/feed.rss\n`,
      '/index.xml': sitemapIndex([`${b}/plain.xml`, `${b}/nested-index.xml`, `${b}/text.txt`, `${b}/atom.xml`]),
      '/nested-index.xml': sitemapIndex([`${b}/file.xml.gz`, `${b}/magic`, `${b}/encoded.xml`]),
      '/plain.xml': urlset([`${b}/plain`]),
      '/file.xml.gz': gzipFile(urlset([`${b}/gz`])),
      '/magic': gzipAsOctets,
      '/encoded.xml': contentEncoded,
      '/text.txt': `${b}/text1\n${b}/text2\n`,
      '/feed.rss': rss([{ link: `${b}/rss` }]),
      '/atom.xml': atom([{ href: `${b}/atom` }, { href: '/relative-atom' }]),
    };
    const outcome = await crawlWithSitemaps({ plugin: { origins: [b], enqueuePages: false } });
    const sources = Object.fromEntries(outcome.records.map((r) => [r.url.slice(b.length), r.sitemap.slice(b.length)]));
    expect(sources).toEqual({
      '/plain': '/plain.xml',
      '/gz': '/file.xml.gz',
      '/magic': '/magic',
      '/encoded': '/encoded.xml',
      '/text1': '/text.txt',
      '/text2': '/text.txt',
      '/rss': '/feed.rss',
      '/atom': '/atom.xml',
      '/relative-atom': '/atom.xml',
    });
    expect(outcome.errors).toEqual([]);
    // No page is fetched when enqueuePages is false: only robots.txt and sitemap files.
    expect(outcome.requests.every((r) => r.kind === 'robots' || r.kind === 'sitemap')).toBe(true);
  });

  it('passes the fields on: lastmod, changefreq, priority and the sitemap each URL came from', async () => {
    const site = await serve({});
    site.routes = {
      '/robots.txt': `User-agent: *\nSitemap: ${site.base}/s.xml\n`,
      '/s.xml': urlset([
        { loc: `${site.base}/x`, lastmod: '2024-03-04T05:06:07+00:00', changefreq: 'weekly', priority: '0.9' },
        `${site.base}/y`,
      ]),
    };
    const outcome = await crawlWithSitemaps({ seeds: [`${site.base}/`], plugin: { enqueuePages: false } });
    expect(outcome.records).toEqual([
      {
        url: `${site.base}/x`,
        lastmod: '2024-03-04T05:06:07+00:00',
        changefreq: 'weekly',
        priority: 0.9,
        sitemap: `${site.base}/s.xml`,
      },
      { url: `${site.base}/y`, sitemap: `${site.base}/s.xml` },
    ]);
  });

  it('maps sitemap priority onto frontier priority (round(p × 10), 5 when absent); sitemap files come first', async () => {
    const site = await serve({});
    const b = site.base;
    site.routes = {
      '/robots.txt': `User-agent: *\nSitemap: ${b}/s.xml\n`,
      '/s.xml': urlset([
        { loc: `${b}/low`, priority: '0.1' },
        { loc: `${b}/none` },
        { loc: `${b}/high`, priority: '1.0' },
        { loc: `${b}/bad`, priority: '7' },
      ]),
      '/low': 'low',
      '/none': 'none',
      '/high': 'high',
      '/bad': 'bad',
    };
    const outcome = await crawlWithSitemaps({ seeds: [], plugin: { origins: [b] } });
    const priorities = Object.fromEntries(
      outcome.added.map((e) => [e.url.slice(b.length), [e.kind ?? 'page', e.priority]]),
    );
    expect(priorities).toEqual({
      '/': ['sitemap-discovery', 11],
      '/s.xml': ['sitemap', 11],
      '/low': ['page', 1],
      '/none': ['page', 5],
      '/high': ['page', 10],
      '/bad': ['page', 5],
    });
    // One host, one request at a time: the highest priority first.
    expect(site.paths()).toEqual(['/robots.txt', '/s.xml', '/high', '/none', '/bad', '/low']);
    const scaled = await crawlWithSitemaps({
      seeds: [],
      plugin: { origins: [b], priorityScale: 100, enqueuePages: true },
    });
    expect(scaled.added.filter((e) => e.kind === undefined).map((e) => e.priority)).toEqual([10, 50, 100, 50]);
  });

  it('filters by lastmodSince (a URL without lastmod is kept), include and exclude, one sitemap-filter skip per file', async () => {
    const site = await serve({});
    const b = site.base;
    site.routes = {
      '/robots.txt': `User-agent: *\nSitemap: ${b}/s.xml\n`,
      '/s.xml': urlset([
        { loc: `${b}/blog/old`, lastmod: '2020-01-01' },
        { loc: `${b}/blog/new`, lastmod: '2025-06-01T10:00:00Z' },
        { loc: `${b}/blog/undated` },
        { loc: `${b}/blog/draft-x`, lastmod: '2025-06-01' },
        { loc: `${b}/shop/new`, lastmod: '2025-06-01' },
      ]),
    };
    const outcome = await crawlWithSitemaps({
      plugin: {
        origins: [b],
        enqueuePages: false,
        lastmodSince: new Date('2024-01-01'),
        include: [`${b}/blog/*`],
        exclude: [/draft/],
      },
    });
    expect(outcome.urls).toEqual([`${b}/blog/new`, `${b}/blog/undated`]);
    const filtered = outcome.skips.filter((s) => s.reason === 'sitemap-filter');
    expect(filtered).toHaveLength(1);
    expect(filtered[0]).toMatchObject({
      url: `${b}/blog/old`,
      detail: expect.stringContaining(`3 entries of sitemap ${b}/s.xml left out by the filters`),
    });
  });

  it('guesses /sitemap.xml only when asked and robots.txt declares none; a guess that misses is no error', async () => {
    const site = await serve({ '/robots.txt': 'User-agent: *\nAllow: /\n' });
    site.routes['/sitemap.xml'] = urlset([`${site.base}/guessed`]);
    const off = await crawlWithSitemaps({ plugin: { origins: [site.base], enqueuePages: false } });
    expect(off.urls).toEqual([]);
    expect(site.paths()).not.toContain('/sitemap.xml');
    const on = await crawlWithSitemaps({
      plugin: { origins: [site.base], enqueuePages: false, guessSitemapXml: true },
    });
    expect(on.urls).toEqual([`${site.base}/guessed`]);
    delete site.routes['/sitemap.xml'];
    const miss = await crawlWithSitemaps({
      plugin: { origins: [site.base], enqueuePages: false, guessSitemapXml: true },
    });
    expect(miss).toMatchObject({ urls: [], errors: [] });
    expect(miss.stats.errors).toBe(0);
  });

  it('reads explicit sitemap URLs without any discovery', async () => {
    const site = await serve({ '/robots.txt': `User-agent: *\nSitemap: ${'http://127.0.0.1:1'}/never.xml\n` });
    site.routes['/maps/s.xml'] = urlset([`${site.base}/anywhere/on/the/origin`]);
    const outcome = await crawlWithSitemaps({
      plugin: { origins: [], sitemapUrls: [`${site.base}/maps/s.xml`], enqueuePages: false },
    });
    // Explicit sitemaps count as declared for their own origin: URLs outside /maps/ are kept.
    expect(outcome.urls).toEqual([`${site.base}/anywhere/on/the/origin`]);
    expect(site.paths()).toEqual(['/robots.txt', '/maps/s.xml']);
  });

  it('enqueues the page URLs of each file as it is read, not after the whole index', async () => {
    const site = await serve({});
    const b = site.base;
    site.routes = {
      '/robots.txt': `User-agent: *\nSitemap: ${b}/index.xml\n`,
      '/index.xml': sitemapIndex([`${b}/one.xml`, `${b}/two.xml`]),
      '/one.xml': urlset(pageUrls(b, 2500, '/one/')),
      '/two.xml': urlset(pageUrls(b, 10, '/two/')),
    };
    const outcome = await crawlWithSitemaps({ plugin: { origins: [b] }, crawler: { maxPages: 1 } });
    expect(outcome.added.filter((e) => e.kind === undefined)).toHaveLength(2510);
    // one.xml's pages were in the frontier before two.xml was requested.
    const { timeline } = outcome;
    expect(timeline.indexOf(`add ${b}/one/2499`)).toBeGreaterThan(-1);
    expect(timeline.indexOf(`add ${b}/one/2499`)).toBeLessThan(timeline.indexOf(`request ${b}/two.xml`));
    expect(outcome.stats.pages).toBe(1);
  });

  it("follows a sitemap's redirect through the gate, and reads it as the sitemap it leads to", async () => {
    const site = await serve({});
    const b = site.base;
    site.routes = {
      '/robots.txt': `User-agent: *\nDisallow: /blocked/\nSitemap: ${b}/old.xml\nSitemap: ${b}/moved.xml\n`,
      '/old.xml': (_req, res) => {
        res.writeHead(301, { location: '/maps/new.xml' });
        res.end();
      },
      '/moved.xml': (_req, res) => {
        res.writeHead(302, { location: '/blocked/s.xml' });
        res.end();
      },
      '/maps/new.xml': urlset([`${b}/maps/page`]),
      '/blocked/s.xml': urlset([`${b}/never`]),
    };
    const outcome = await crawlWithSitemaps({ plugin: { origins: [b], enqueuePages: false } });
    expect(outcome.records).toEqual([{ url: `${b}/maps/page`, sitemap: `${b}/maps/new.xml` }]);
    expect(site.paths()).toEqual(['/robots.txt', '/old.xml', '/moved.xml', '/maps/new.xml']);
    expect(outcome.skips.map((s) => [s.url, s.reason])).toEqual([[`${b}/blocked/s.xml`, 'robots']]);
  });

  it('puts a sitemap back in the frontier when the crawl is stopped while it is read', async () => {
    const site = await serve({});
    site.routes = {
      '/robots.txt': `User-agent: *\nSitemap: ${site.base}/s.xml\n`,
      '/s.xml': urlset(pageUrls(site.base, 3000)),
    };
    const controller = new AbortController();
    let seen = 0;
    const crawler = createCrawler({
      userAgent: UA,
      allowNet: ['127.0.0.0/8'],
      minDelayMs: 0,
      signal: controller.signal,
      plugins: [sitemaps({ origins: [site.base], onUrl: () => void (++seen === 1500 && controller.abort()) })],
    });
    const errors: unknown[] = [];
    crawler.on('error', (event) => errors.push(event));
    const stats = await crawler.run();
    expect(stats.aborted).toBe(true);
    expect(seen).toBe(1500);
    expect(errors).toEqual([]);
    const counts = await crawler.store.counts();
    // The sitemap is queued again, with the 1,000 pages offered before the stop.
    expect(counts.queued).toBe(1001);
  });
});
