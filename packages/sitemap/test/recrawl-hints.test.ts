// A recrawl reads the sitemaps again (when they are due) and trusts their lastmod: a page whose lastmod is at or
// before its last fetch is not requested; one whose lastmod moved past it is. Judged by the test
// server's own log, over three crawls of one store.

import { createCrawler } from '@politely/crawler';
import { createMemoryFrontierStore, type FrontierStore } from '@politely/frontier';
import { sitemaps } from '@politely/sitemap';
import { describe, expect, it } from 'vitest';
import { UA } from './helpers/crawl.js';
import { urlset } from './helpers/fixtures.js';
import { type Route, useServers } from './helpers/server.js';

const serve = useServers();

/** An HTML page with a strong ETag that answers If-None-Match with 304. */
function page(text: string): Route {
  const etag = `"${Buffer.from(text).toString('base64url')}"`;
  return (req, res) => {
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag });
    res.end(`<!doctype html><title>${text}</title><p>${text}</p>`);
  };
}

async function crawl(store: FrontierStore, seed: string, recrawl: boolean): Promise<void> {
  const crawler = createCrawler({
    userAgent: UA,
    allowNet: ['127.0.0.0/8'],
    seeds: [seed],
    store,
    minDelayMs: 0,
    maxRetries: 0,
    followLinks: false,
    recrawl,
    plugins: [sitemaps()],
  });
  await crawler.run();
}

describe('a recrawl and sitemap lastmod', () => {
  it('skips pages the sitemap says are unchanged since their fetch, and revisits those it says changed', async () => {
    const old = '2020-01-01';
    const server = await serve({});
    const base = server.base;
    const sitemapOf = (lastmods: Record<string, string | undefined>): string =>
      urlset(
        Object.entries(lastmods).map(([path, lastmod]) =>
          lastmod === undefined ? base + path : { loc: base + path, lastmod },
        ),
      );
    server.routes = {
      '/robots.txt': `User-agent: *\nAllow: /\nSitemap: ${base}/sitemap.xml\n`,
      '/sitemap.xml': sitemapOf({ '/a': old, '/b': old, '/c': undefined }),
      '/': page('home'),
      '/a': page('a'),
      '/b': page('b'),
      '/c': page('c'),
    };
    const store = createMemoryFrontierStore();
    const pagesRequested = (from: number) =>
      server
        .paths()
        .slice(from)
        .filter((path) => path !== '/robots.txt' && path !== '/sitemap.xml')
        .sort();

    const began = Date.now();
    await crawl(store, `${base}/`, false);
    expect(pagesRequested(0)).toEqual(['/', '/a', '/b', '/c']);

    // Nothing changed: the sitemap is read again, /a and /b (lastmod before their fetch) are not
    // requested, /c (no lastmod) and the seed are revalidated.
    let from = server.log.length;
    await crawl(store, `${base}/`, true);
    expect(server.paths().slice(from)).toContain('/sitemap.xml');
    expect(pagesRequested(from)).toEqual(['/', '/c']);

    // Found unchanged after t, a URL waits 1.5 t before its next revisit (the adaptive
    // interval): wait that long. The sitemap then says /a changed after it was fetched: it is
    // revisited, /b still is not.
    await new Promise((resolve) => setTimeout(resolve, (Date.now() - began) * 2));
    server.routes = {
      ...server.routes,
      '/sitemap.xml': sitemapOf({ '/a': new Date().toISOString(), '/b': old, '/c': undefined }),
    };
    from = server.log.length;
    await crawl(store, `${base}/`, true);
    expect(pagesRequested(from)).toEqual(['/', '/a', '/c']);
  });
});
