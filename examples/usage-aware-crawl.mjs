// A crawl that collects text for AI training, and so honours what sites say about that use:
// `purposes: ['ai-train']` makes the crawler read usage preferences (Content-Signal and
// Content-Usage lines in robots.txt, /.well-known/tdmrep.json, the Content-Usage, tdm-reservation
// and X-Robots-Tag headers, `<meta name="tdm-reservation">` and `<meta name="robots" content="noai">`).
// A URL reserved for AI training before it is fetched (robots.txt, tdmrep.json) is skipped without
// a request; a page reserved by its own headers or meta tags is fetched but never reaches the
// handler. Both are reported as skips with reason `usage-reserved`. Prints each page it got, with
// the verdict for AI training, and each page it skipped, with why.
//
//   node packages/local-web/dist/serve.js --usage    # the usage web, in another terminal
//   node examples/usage-aware-crawl.mjs [SEED]
//
// SEED defaults to $SEED, then the usage web's hub (http://127.0.0.90:8080/), which links every
// page of its four sites.

import { createCrawler } from '@politely/crawler';

const seed = process.argv[2] ?? process.env.SEED ?? 'http://127.0.0.90:8080/';
const got = [];
const reserved = [];

const crawler = createCrawler({
  userAgent: 'PolitelyDemo/0.1 (+https://example.invalid/bot)',
  seeds: [seed],
  // The usage web lives on loopback, which the SSRF guard refuses unless allowed; its sites are
  // separate hosts, so the crawl may leave the seed's host.
  allowNet: ['127.0.0.0/8'],
  scope: 'any',
  maxPages: 100,
  // What the collected pages are for: pages reserved for it are not collected.
  purposes: ['ai-train'],
  handler: (page) => {
    const verdict = page.usage.purposes['ai-train'];
    const why = verdict.sources.map((source) => source.text).join('; ');
    got.push(page.url);
    console.log(`got      ${page.url}  ai-train ${verdict.status}${why === '' ? '' : ` (${why})`}`);
  },
});

crawler.on('skip', (skip) => {
  if (skip.reason === 'usage-reserved') {
    reserved.push(skip.url);
    console.log(`reserved ${skip.url}  ${skip.detail ?? ''}`);
  } else if (skip.reason === 'robots') {
    console.log(`disallow ${skip.url}  ${skip.detail ?? ''}`);
  }
});

const stats = await crawler.run();
console.log(
  `done: ${got.length} pages for AI training, ${reserved.length} reserved for it, ${stats.requests} requests, ${(stats.durationMs / 1000).toFixed(1)} s`,
);
