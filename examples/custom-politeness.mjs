// A custom politeness policy: a longer minimum delay, two requests at a time per host, a delay
// that grows when a host slows down (adaptive), a cap on what Crawl-delay may ask, and a scope
// given as a predicate. At the end, each host's tightest gap between request starts is checked
// against the delay its clock had to keep.
//
//   node examples/custom-politeness.mjs [SEED...]
//
// SEEDs default to $SEEDS (space-separated), then the demo web's news and docs sites.

import { createCrawler } from '@politely/crawler';

const seeds =
  process.argv.length > 2
    ? process.argv.slice(2)
    : (process.env.SEEDS ?? 'http://127.0.0.4:8080/ http://127.0.0.5:8080/').split(' ');
const allowedHosts = new Set(seeds.map((seed) => new URL(seed).host));

const crawler = createCrawler({
  userAgent: 'PolitelyDemo/0.1 (+https://example.invalid/bot)',
  seeds,
  allowNet: ['127.0.0.0/8'], // the demo web is on loopback
  minDelayMs: 300, // never closer than 300 ms at one host, whatever robots.txt allows
  maxCrawlDelayMs: 5_000, // a Crawl-delay above 5 s is capped (and the host crawled slowly)
  perHostConcurrency: 1, // one request at a time per host (the polite default)
  concurrency: 8, // across all hosts
  adaptiveDelay: { targetConcurrency: 1, maxDelayMs: 10_000 }, // back off as latency grows
  maxPages: Number(process.env.MAX_PAGES ?? 30),
  // Scope as a predicate: only the seeds' hosts, and not the news archive's pagination.
  scope: (url) => allowedHosts.has(url.host) && url.pathname !== '/archive',
});

const lastStart = new Map();
const tightest = new Map();
crawler.on('request', ({ hostKey, at, delayMs }) => {
  const previous = lastStart.get(hostKey);
  if (previous !== undefined && delayMs !== undefined) {
    const gap = at - previous;
    const worst = tightest.get(hostKey);
    if (worst === undefined || gap / delayMs < worst.gap / worst.delayMs) tightest.set(hostKey, { gap, delayMs });
  }
  lastStart.set(hostKey, at);
});

const stats = await crawler.run();
for (const [host, { gap, delayMs }] of tightest) {
  console.log(`${host}: tightest gap ${gap} ms, delay ${delayMs} ms ${gap >= delayMs ? '✓' : '✗'}`);
}
console.log(`done: ${stats.pages} pages, skipped ${JSON.stringify(stats.skipped)}`);
