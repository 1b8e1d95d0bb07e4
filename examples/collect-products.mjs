// Data collection: crawl a shop (links and sitemaps), pick the product pages, extract their
// fields with cheerio (`page.$`) and write one JSON line per product.
//
//   node examples/collect-products.mjs [SHOP] [OUT]
//
// SHOP defaults to $SHOP, then the demo web's shop (http://127.0.0.3:8080/); OUT to $OUT, then
// products.jsonl.

import { createWriteStream } from 'node:fs';
import { createCrawler } from '@politely/crawler';
import { sitemaps } from '@politely/sitemap';

const shop = new URL(process.argv[2] ?? process.env.SHOP ?? 'http://127.0.0.3:8080/');
const outFile = process.argv[3] ?? process.env.OUT ?? 'products.jsonl';
const out = createWriteStream(outFile);
let products = 0;

/** The product's fields from its schema.org microdata; null for any other page. */
function extractProduct($, url) {
  const product = $('[itemtype="https://schema.org/Product"]').first();
  if (product.length === 0) return null;
  const prop = (name) => product.find(`[itemprop="${name}"]`).first();
  return {
    url,
    name: prop('name').text().trim(),
    sku: prop('sku').text().trim(),
    price: Number(prop('price').attr('content')),
    currency: prop('priceCurrency').attr('content') ?? null,
    rating: Number(prop('ratingValue').text()),
    reviews: Number(prop('reviewCount').text()),
    inStock: prop('availability').attr('href')?.endsWith('/InStock') ?? false,
  };
}

const crawler = createCrawler({
  userAgent: 'PolitelyDemo/0.1 (+https://example.invalid/bot)',
  seeds: [shop.href],
  allowNet: ['127.0.0.0/8'], // the demo web is on loopback
  scope: 'same-origin',
  plugins: [sitemaps()], // the products only the sitemap lists, too
  handler: async (page) => {
    if (page.status !== 200) return;
    const product = extractProduct(page.$, page.finalUrl);
    if (product === null) return;
    products++;
    if (!out.write(`${JSON.stringify(product)}\n`)) await new Promise((resolve) => out.once('drain', resolve));
  },
});

const stats = await crawler.run();
await new Promise((resolve) => out.end(resolve));
console.log(`${products} products written to ${outFile} (${stats.pages} pages crawled in ${(stats.durationMs / 1000).toFixed(1)} s)`);
