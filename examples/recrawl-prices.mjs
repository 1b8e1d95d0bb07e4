// A job that runs every day: the shop's product pages, their prices in a dataset. The first run
// crawls the shop; every later run revisits what the crawl file says is due, sending the
// validators the last run got (If-None-Match, If-Modified-Since). A page that has not changed
// answers 304 and costs the shop no body; only the products whose page changed are written again.
//
//   node examples/recrawl-prices.mjs [SHOP] [CRAWL_FILE] [OUT]
//
// SHOP defaults to $SHOP, then the demo web's shop (http://127.0.0.3:8080/); CRAWL_FILE to
// prices.db (the crawl's memory between runs); OUT to prices.jsonl (appended to, run after run).

import { createCrawler } from '@politely/crawler';
import { createSqliteFrontierStore, createSqliteRobotsCache } from '@politely/store-sqlite';

const shop = new URL(process.argv[2] ?? process.env.SHOP ?? 'http://127.0.0.3:8080/');
const crawlFile = process.argv[3] ?? 'prices.db';
const outFile = process.argv[4] ?? 'prices.jsonl';

const store = createSqliteFrontierStore({ path: crawlFile });
const crawler = createCrawler({
  userAgent: 'PolitelyDemo/0.1 (+https://example.invalid/bot)',
  seeds: [shop.href],
  allowNet: ['127.0.0.0/8'], // the demo web lives on loopback
  scope: 'same-origin',
  store,
  robotsCache: createSqliteRobotsCache(store),
  // Revisit what the crawl file holds when it is due; on the first run there is nothing to revisit.
  recrawl: true,
  outputs: [{ path: outFile }],
  handler: async (page) => {
    if (page.notModified) return; // 304 (or the same body): yesterday's record still holds
    const product = page.$('[itemtype="https://schema.org/Product"]').first();
    if (product.length === 0) return;
    const price = Number(product.find('[itemprop="price"]').attr('content'));
    const name = product.find('[itemprop="name"]').first().text().trim();
    await page.push({ url: page.url, name, price, change: page.change, seenAt: new Date().toISOString() });
    console.log(`${page.change === 'new' ? 'new    ' : 'changed'} ${page.url}`);
  },
});

const stats = await crawler.run();
const { revisited, notModified, unchanged, changed, bytesSaved } = stats.revisits;
console.log(
  `done: ${stats.pages} pages, ${stats.bytes} bytes downloaded; revisited ${revisited}: ${notModified} not modified, ${unchanged} unchanged, ${changed} changed, ${bytesSaved} bytes not downloaded again`,
);
