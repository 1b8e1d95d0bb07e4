// A sitemap-seeded crawl: the site's robots.txt says where its sitemaps are (they may live on
// another host); their pages are crawled, links on them are not followed. Sitemap files are
// fetched like pages: robots.txt obeyed, the host's Crawl-delay kept.
//
//   node examples/sitemap-crawl.mjs [SITE] [MAX_PAGES]
//
// SITE defaults to $SITE, then the demo web's docs site (http://127.0.0.5:8080/), whose
// sitemap is published by another host.

import { createCrawler } from '@politely/crawler';
import { sitemaps } from '@politely/sitemap';

const site = new URL(process.argv[2] ?? process.env.SITE ?? 'http://127.0.0.5:8080/');
const maxPages = Number(process.argv[3] ?? process.env.MAX_PAGES ?? 100);

let listed = 0;
const crawler = createCrawler({
  userAgent: 'PolitelyDemo/0.1 (+https://example.invalid/bot)',
  seeds: [site.href], // the crawl's scope: this site
  allowNet: ['127.0.0.0/8'], // the demo web is on loopback
  followLinks: false, // only what the sitemaps list
  maxPages,
  plugins: [
    sitemaps({
      origins: [site.origin],
      onDiscovery: ({ origin, sitemaps: found }) =>
        console.log(`robots.txt of ${origin} lists ${found.length} sitemap(s): ${found.join(' ')}`),
      onUrl: () => void listed++,
    }),
  ],
  handler: (page) => console.log(`${page.status} ${page.url}`),
});

crawler.on('request', (request) => {
  if (request.kind === 'sitemap') console.log(`sitemap ${request.url}`);
});

const stats = await crawler.run();
console.log(`done: ${listed} URLs listed in sitemaps, ${stats.pages} pages fetched, ${stats.requests} requests`);
