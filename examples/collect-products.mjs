// Data collection the way real crawls are written: routes by label. The shop's home page leads to
// its category pages, each category page (and its next pages) to product pages; the category
// travels with each product request as userData, and each product page becomes one record in a
// JSON lines dataset. Products that only the sitemap lists arrive without a label and are read by
// the default route.
//
//   node examples/collect-products.mjs [SHOP] [OUT]
//
// SHOP defaults to $SHOP, then the demo web's shop (http://127.0.0.3:8080/); OUT to $OUT, then
// products.jsonl.

import { createCrawler } from '@politely/crawler';
import { sitemaps } from '@politely/sitemap';

const shop = new URL(process.argv[2] ?? process.env.SHOP ?? 'http://127.0.0.3:8080/');
const outFile = process.argv[3] ?? process.env.OUT ?? 'products.jsonl';

/** The product's fields from its schema.org microdata; null for a page that is not a product. */
function extractProduct($, url, category) {
  const product = $('[itemtype="https://schema.org/Product"]').first();
  if (product.length === 0) return null;
  const prop = (name) => product.find(`[itemprop="${name}"]`).first();
  return {
    url,
    category,
    name: prop('name').text().trim(),
    sku: prop('sku').text().trim(),
    price: Number(prop('price').attr('content')),
    currency: prop('priceCurrency').attr('content') ?? null,
    rating: Number(prop('ratingValue').text()),
    reviews: Number(prop('reviewCount').text()),
    inStock: prop('availability').attr('href')?.endsWith('/InStock') ?? false,
  };
}

/** `/category/garden?page=2` → `garden`. */
const categoryOf = (url) => new URL(url).pathname.split('/')[2];

/** Writes the product of a product page; the category from the request, else from the page. */
async function pushProduct(page) {
  if (page.status !== 200) return;
  const category = page.request.userData.category ?? page.$('.category a').first().text().trim();
  const product = extractProduct(page.$, page.finalUrl, category);
  if (product !== null) await page.push(product);
}

const crawler = createCrawler({
  userAgent: 'PolitelyDemo/0.1 (+https://example.invalid/bot)',
  seeds: [{ url: shop.href, label: 'HOME' }],
  allowNet: ['127.0.0.0/8'], // the demo web is on loopback
  scope: 'same-origin',
  followLinks: false, // the routes say which links matter
  plugins: [sitemaps()], // the products only the sitemap lists, too (they come unlabelled)
  outputs: [{ path: outFile, overwrite: true }],
  handlers: {
    HOME: (page) =>
      page.enqueueLinks({ selector: 'a[href^="/category/"]', filter: (url) => !url.includes('?'), label: 'CATEGORY' }),
    CATEGORY: async (page) => {
      const category = categoryOf(page.finalUrl);
      await page.enqueueLinks({ selector: '.product-card', label: 'PRODUCT', userData: { category } });
      await page.enqueueLinks({ selector: '.pager', label: 'CATEGORY' }); // its next and previous pages
    },
    PRODUCT: pushProduct,
    default: pushProduct,
  },
});

let products = 0;
crawler.on('record', () => products++);
const stats = await crawler.run();
console.log(
  `${products} products written to ${outFile} (${stats.pages} pages crawled in ${(stats.durationMs / 1000).toFixed(1)} s)`,
);
