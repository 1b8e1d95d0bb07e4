import { describe, expect, it } from 'vitest';
import { crawlWithSitemaps } from './helpers/crawl.js';
import { sitemapIndex, urlset } from './helpers/fixtures.js';
import { overlapped, type Route, smallestGapMs, useServers } from './helpers/server.js';

const serve = useServers();

describe('sitemaps() scope', () => {
  it("sitemaps.org: keeps URLs under the sitemap's own directory, and any URL of the origin whose robots.txt declared it", async () => {
    // Two hosts: 127.0.0.1 (the site) and 127.0.0.2 (where its sitemaps live).
    const site = await serve({}, '127.0.0.1');
    const cdn = await serve({}, '127.0.0.2');
    const other = 'http://127.0.0.3:9';
    site.routes = { '/robots.txt': `User-agent: *\nSitemap: ${cdn.base}/maps/site.xml\n` };
    cdn.routes = {
      '/robots.txt': 'User-agent: *\nAllow: /\n',
      '/maps/site.xml': urlset([
        `${site.base}/declared`,
        `${cdn.base}/maps/under`,
        `${cdn.base}/elsewhere`,
        `${other}/x`,
      ]),
      // Not declared by the site: only URLs under cdn/maps/ may be listed.
      '/maps/undeclared.xml': urlset([`${site.base}/not-declared`, `${cdn.base}/maps/fine`]),
    };
    const outcome = await crawlWithSitemaps({
      plugin: { origins: [site.base], sitemapUrls: [`${cdn.base}/maps/undeclared.xml`], enqueuePages: false },
    });
    expect(outcome.urls.sort()).toEqual(
      [`${site.base}/declared`, `${cdn.base}/maps/fine`, `${cdn.base}/maps/under`].sort(),
    );
    const scoped = outcome.skips.filter((s) => s.reason === 'sitemap-scope');
    expect(scoped.map((s) => [s.url, s.detail])).toEqual(
      expect.arrayContaining([
        [
          `${cdn.base}/elsewhere`,
          `2 entries of sitemap ${cdn.base}/maps/site.xml outside its scope (under ${cdn.base}/maps/ or on ${site.base}), e.g. this one`,
        ],
        [
          `${site.base}/not-declared`,
          `1 entry of sitemap ${cdn.base}/maps/undeclared.xml outside its scope (on ${cdn.base}), e.g. this one`,
        ],
      ]),
    );
    expect(scoped).toHaveLength(2);
    // The cross-host sitemap was fetched under the cdn's own robots.txt.
    expect(cdn.paths()[0]).toBe('/robots.txt');
  });

  // sitemaps.org, "Sitemaps & Cross Submits": www., blog. and docs. of one site each declare one
  // sitemap that lists URLs on all three. Every order of the declarations keeps all of them, the
  // sitemap is fetched once, and a declarer whose robots.txt comes last (after the sitemap was read)
  // still gets its URLs.
  for (const [name, order, slowHost] of [
    ['www first', [0, 1, 2], -1],
    ['docs first', [2, 1, 0], -1],
    ['blog first, www’s robots.txt slow (read after the sitemap)', [1, 2, 0], 0],
    ['www first, docs’s robots.txt slow (read after the sitemap)', [0, 1, 2], 2],
  ] as const) {
    it(`cross-submission: a sitemap declared by three origins lists URLs on all three (${name})`, async () => {
      const hosts = [await serve({}, '127.0.0.1'), await serve({}, '127.0.0.2'), await serve({}, '127.0.0.3')];
      const [www, blog, docs] = hosts as [(typeof hosts)[0], (typeof hosts)[0], (typeof hosts)[0]];
      const shared = `${www.base}/sitemaps/all.xml`;
      hosts.forEach((host, i) => {
        const robots = `User-agent: *\nAllow: /\nSitemap: ${shared}\n`;
        host.routes['/robots.txt'] =
          i === slowHost
            ? (_req, res) =>
                void setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end(robots), 400)
            : robots;
      });
      www.routes['/sitemaps/all.xml'] = urlset([
        `${www.base}/w`,
        `${blog.base}/b`,
        `${docs.base}/d`,
        'http://127.0.0.4:9/nobody',
      ]);
      const outcome = await crawlWithSitemaps({
        plugin: { origins: order.map((i) => hosts[i]!.base), enqueuePages: false },
      });
      expect(outcome.urls.sort()).toEqual([`${www.base}/w`, `${blog.base}/b`, `${docs.base}/d`].sort());
      expect(www.paths().filter((path) => path === '/sitemaps/all.xml')).toHaveLength(1);
      // The one URL on no declarer is out of scope, and the file's tally names the declarers known
      // when it was read (a slow one came after, and still got its URL).
      const scoped = outcome.skips.filter((s) => s.reason === 'sitemap-scope');
      expect(scoped.map((s) => s.url)).toEqual(['http://127.0.0.4:9/nobody']);
      hosts.forEach((host, i) => {
        if (i !== slowHost) expect(scoped[0]!.detail).toContain(host.base);
      });
    });
  }

  it('cross-submission: URLs on an origin that does not declare the sitemap, or whose robots.txt is never read, are out of scope', async () => {
    const www = await serve({}, '127.0.0.1');
    const other = await serve({}, '127.0.0.2');
    const closed = await serve({}, '127.0.0.3');
    const shared = `${www.base}/all.xml`;
    www.routes = {
      '/robots.txt': `User-agent: *\nSitemap: ${shared}\n`,
      '/all.xml': urlset([`${www.base}/w`, `${other.base}/o`, `${closed.base}/c`]),
    };
    // Reads its robots.txt late, and declares nothing.
    other.routes = {
      '/robots.txt': (_req, res) =>
        void setTimeout(
          () => res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n'),
          300,
        ),
    };
    // Disallows everything to us: its discovery never runs, and its held URL meets the robots gate.
    closed.routes = { '/robots.txt': 'User-agent: *\nDisallow: /\n' };
    const outcome = await crawlWithSitemaps({
      plugin: { origins: [www.base, other.base, closed.base], enqueuePages: false },
    });
    expect(outcome.urls).toEqual([`${www.base}/w`]);
    const scoped = outcome.skips.filter((s) => s.reason === 'sitemap-scope');
    expect(scoped.map((s) => s.url)).toEqual([`${other.base}/o`]);
    expect(outcome.skips.filter((s) => s.url === `${closed.base}/c`).map((s) => s.reason)).toEqual(['robots']);
    // Each file's tally says which origins declared the sitemap.
    for (const skip of scoped)
      expect(skip.detail).toBe(`1 entry of sitemap ${shared} outside its scope (on ${www.base}), e.g. this one`);
  });

  it('an index passes its declaration on: a child sitemap may list URLs of the declaring origin', async () => {
    const site = await serve({}, '127.0.0.1');
    const cdn = await serve({}, '127.0.0.2');
    site.routes = { '/robots.txt': `User-agent: *\nSitemap: ${cdn.base}/index.xml\n` };
    cdn.routes = {
      '/robots.txt': 'User-agent: *\nAllow: /\n',
      '/index.xml': sitemapIndex([
        `${cdn.base}/deep/child.xml`,
        `${site.base}/own-child.xml`,
        'http://127.0.0.3:9/foreign.xml',
      ]),
      '/deep/child.xml': urlset([`${site.base}/from-child`]),
    };
    site.routes['/own-child.xml'] = urlset([`${site.base}/from-own-child`]);
    const outcome = await crawlWithSitemaps({ plugin: { origins: [site.base], enqueuePages: false } });
    expect(outcome.urls.sort()).toEqual([`${site.base}/from-child`, `${site.base}/from-own-child`]);
    expect(outcome.skips.map((s) => [s.url, s.reason])).toEqual([['http://127.0.0.3:9/foreign.xml', 'sitemap-scope']]);
  });
});

describe('sitemaps() politeness', () => {
  it('fetches the sitemap files of one host one at a time, at least its Crawl-delay apart', async () => {
    const site = await serve({});
    const b = site.base;
    const slowly =
      (body: string): Route =>
      (_req, res) => {
        res.setHeader('content-type', 'application/xml');
        setTimeout(() => res.end(body), 30);
      };
    site.routes = {
      '/robots.txt': `User-agent: *\nCrawl-delay: 0.3\nSitemap: ${b}/index.xml\nSitemap: ${b}/extra.xml\n`,
      '/index.xml': slowly(sitemapIndex([`${b}/1.xml`, `${b}/2.xml`, `${b}/3.xml`])),
      '/extra.xml': slowly(urlset([`${b}/e`])),
      '/1.xml': slowly(urlset([`${b}/a`])),
      '/2.xml': slowly(urlset([`${b}/b`])),
      '/3.xml': slowly(urlset([`${b}/c`])),
    };
    const outcome = await crawlWithSitemaps({
      plugin: { origins: [b], enqueuePages: false },
      crawler: { concurrency: 8 },
    });
    expect(outcome.urls.sort()).toEqual([`${b}/a`, `${b}/b`, `${b}/c`, `${b}/e`]);
    expect(site.log).toHaveLength(6);
    expect(overlapped(site.log)).toBe(false);
    expect(smallestGapMs(site.log)).toBeGreaterThanOrEqual(295);
  });

  it('does not fetch a sitemap whose path robots.txt disallows (server log), and says so', async () => {
    const site = await serve({});
    const b = site.base;
    site.routes = {
      '/robots.txt': `User-agent: *\nDisallow: /private/\nSitemap: ${b}/private/sitemap.xml\nSitemap: ${b}/public.xml\n`,
      '/private/sitemap.xml': urlset([`${b}/secret`]),
      '/public.xml': urlset([`${b}/open`, `${b}/private/page`]),
      '/open': 'open',
      '/private/page': 'secret',
    };
    const outcome = await crawlWithSitemaps({ plugin: { origins: [b] } });
    expect(site.paths()).toEqual(['/robots.txt', '/public.xml', '/open']);
    expect(outcome.skips.map((s) => [s.url, s.reason, s.detail])).toEqual([
      [`${b}/private/sitemap.xml`, 'robots', 'line 2: Disallow: /private/'],
      [`${b}/private/page`, 'robots', 'line 2: Disallow: /private/'],
    ]);
  });

  it('reads no sitemap of a site whose robots.txt is unreachable', async () => {
    const site = await serve({
      '/robots.txt': { body: 'down', status: 503 },
      '/sitemap.xml': urlset(['http://127.0.0.1/x']),
    });
    const outcome = await crawlWithSitemaps({
      plugin: { origins: [site.base], guessSitemapXml: true, enqueuePages: false },
      crawler: { maxRobotsRetries: 0 },
    });
    expect(site.paths()).toEqual(['/robots.txt']);
    expect(outcome.skips.map((s) => s.reason)).toEqual(['robots-unreachable']);
  });
});
