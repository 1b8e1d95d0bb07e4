// A shop whose pages are built by JavaScript: the HTML it serves is an empty shell, and the
// products, prices and links appear only once its script has called the shop's API. The crawl
// renders each page in Chromium — and every request the page makes (its scripts, its API calls,
// a third-party widget) goes through the crawler: robots.txt of that origin, the address guard,
// our User-Agent and each host's delay. The tracking beacon the shop's robots.txt disallows, the
// analytics script the widget host disallows, a beacon to a private address and a WebSocket are
// never sent.
//
//   node examples/render-catalogue.mjs [SHOP] [OUT]
//
// SHOP defaults to $SHOP, then the render web's app (http://127.0.0.100:8080/, started by
// `node packages/local-web/dist/serve.js --render`); OUT to catalogue.jsonl. Needs Chromium
// (Debian: apt-get install chromium), found on the PATH.

import { ChromiumRenderer } from '@politely/browser';
import { createCrawler } from '@politely/crawler';

const shop = new URL(process.argv[2] ?? process.env.SHOP ?? 'http://127.0.0.100:8080/');
const outFile = process.argv[3] ?? 'catalogue.jsonl';

const crawler = createCrawler({
  userAgent: 'PolitelyDemo/0.1 (+https://example.invalid/bot)',
  seeds: [shop.href],
  allowNet: ['127.0.0.0/8'], // the render web lives on loopback
  scope: 'same-origin',
  // Only the pages need a browser; the crawl is the same otherwise.
  render: true,
  renderer: new ChromiumRenderer(),
  outputs: [{ path: outFile }],
  handler: async (page) => {
    // page.$ is the rendered DOM: the served HTML had no <h1>, no price, no link.
    const price = page.$('p.price').text().trim();
    if (price === '') return;
    await page.push({ url: page.url, name: page.$('h1').text().trim(), price, title: page.$('title').text() });
    console.log(`${page.$('h1').text().trim()}: ${price}`);
  },
});

const stats = await crawler.run();
const { pageLoads, subRequests, refused } = stats.rendering;
const refusals = Object.entries(refused)
  .map(([why, count]) => `${count} ${why}`)
  .join(', ');
console.log(`done: ${pageLoads} pages rendered, ${subRequests} requests made for them, refused: ${refusals || 'none'}`);
