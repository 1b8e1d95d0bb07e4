// Data collection the way real crawls are written: routes by label. The shop's home page leads to
// its category pages, each category page (and its next pages) to product pages, and each product
// page becomes one record in a JSON lines dataset. The category travels with each product request
// a category page makes, as userData. The shop's sitemap lists every product, two that no page
// links to among them: the sitemap plugin queues its product pages for the same PRODUCT route
// (`label`). A product both list is queued once, by whichever comes first (usually the sitemap:
// the pages it lists rank above links); one queued without its category reads it from its page.
//
//   node examples/collect-products.mjs [SHOP] [OUT]
//
// SHOP defaults to $SHOP, then the demo web's shop (http://127.0.0.3:8080/); OUT to $OUT, then
// products.jsonl. Prints how many pages each route handled.

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

/** Pages handled, by route. */
const handled = { HOME: 0, CATEGORY: 0, PRODUCT: 0, default: 0 };

const crawler = createCrawler({
  userAgent: 'PolitelyDemo/0.1 (+https://example.invalid/bot)',
  seeds: [{ url: shop.href, label: 'HOME' }],
  allowNet: ['127.0.0.0/8'], // the demo web is on loopback
  scope: 'same-origin',
  followLinks: false, // the routes say which links matter
  plugins: [
    // The product pages the sitemap lists (only those: the routes find the rest), for PRODUCT.
    sitemaps({ include: [new URL('/products/*', shop).href], label: 'PRODUCT' }),
  ],
  outputs: [{ path: outFile, overwrite: true }],
  handlers: {
    HOME: async (page) => {
      handled.HOME++;
      // The departments in the header's navigation: /category/kitchen, /category/garden, …
      await page.enqueueLinks({ selector: '.site-header nav a[href^="/category/"]', label: 'CATEGORY' });
    },
    CATEGORY: async (page) => {
      handled.CATEGORY++;
      const category = categoryOf(page.finalUrl);
      // <li class="product-card"><a href="/products/…">…</a> <span class="price">…</span></li>
      await page.enqueueLinks({ selector: '.product-card a', label: 'PRODUCT', userData: { category } });
      await page.enqueueLinks({ selector: 'nav.pager a', label: 'CATEGORY' }); // its next and previous pages
    },
    PRODUCT: async (page) => {
      handled.PRODUCT++;
      if (page.status !== 200) return;
      // The category from the request (a category page's link), else from the page (the sitemap's).
      const category = page.request.userData.category ?? page.$('.category a').first().text().trim();
      const product = extractProduct(page.$, page.finalUrl, category);
      if (product !== null) await page.push(product);
    },
    // Requests without a label; none here: every request this crawl makes has one.
    default: (page) => {
      handled.default++;
      console.log(`no route asked for ${page.url}`);
    },
  },
});

let products = 0;
crawler.on('record', () => products++);
const stats = await crawler.run();
console.log(
  `${products} products written to ${outFile} (${stats.pages} pages crawled in ${(stats.durationMs / 1000).toFixed(1)} s)`,
);
console.log(
  `pages by route: ${Object.entries(handled)
    .map(([route, count]) => `${route} ${count}`)
    .join(', ')}`,
);
