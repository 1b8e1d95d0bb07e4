// A polite crawl with a handler: robots.txt is obeyed and each host is paced by its
// Crawl-delay, with nothing to configure. Prints each page's status and title.
//
//   node packages/local-web/dist/serve.js          # the demo web, in another terminal
//   node examples/basic-crawl.mjs [SEED] [MAX_PAGES]
//
// SEED defaults to $SEED, then the demo web's shop (http://127.0.0.3:8080/).

import { createCrawler } from '@politely/crawler';

const seed = process.argv[2] ?? process.env.SEED ?? 'http://127.0.0.3:8080/';
const maxPages = Number(process.argv[3] ?? process.env.MAX_PAGES ?? 25);

const crawler = createCrawler({
  // Who you are, and where to read about your crawler: robots.txt groups match its first word.
  userAgent: 'PolitelyDemo/0.1 (+https://example.invalid/bot)',
  seeds: [seed],
  // The demo web lives on loopback, which the SSRF guard refuses unless allowed.
  allowNet: ['127.0.0.0/8'],
  maxPages,
  handler: (page) => {
    const title = page.$('title').text().trim();
    console.log(`${page.status} ${page.url}${page.finalUrl === page.url ? '' : ` -> ${page.finalUrl}`}  ${title}`);
  },
});

crawler.on('skip', (skip) => {
  if (skip.reason === 'robots') console.log(`skipped (robots.txt) ${skip.url}  ${skip.detail ?? ''}`);
});

const stats = await crawler.run();
console.log(
  `done: ${stats.pages} pages, ${stats.requests} requests (${stats.robotsRequests} robots.txt), ${stats.skipped.robots ?? 0} disallowed by robots.txt, ${(stats.durationMs / 1000).toFixed(1)} s`,
);
