// shop: a store with product pages worth scraping (microdata and plain HTML), a robots.txt with
// several groups, wildcards, `$` and Allow overriding Disallow, and a sitemap index pointing at a
// plain urlset and a gzip urlset.

import { gzipSync } from 'node:zlib';
import type { HostSpec } from '../host-spec.js';
import { a, escapeHtml, linkList, renderPage } from '../html.js';
import { binaryResource, htmlResource, type Resource, textResource } from '../resource.js';
import { sitemapIndexXml, urlsetXml } from '../sitemap-files.js';
import { articleAbout } from './articles.js';
import { DEMO_CATEGORIES, type DemoProduct, demoProducts } from './catalog.js';
import { type DemoOrigins, demoFooter } from './demo-hosts.js';

const SITE = 'Loopback Supply Co.';
const PAGE_SIZE = 6;

export function shopRobotsTxt(origin: string): string {
  return `# ${SITE}: robots.txt of the politely demo web's shop.
# Several groups, wildcards (*), end anchors ($), and Allow overriding Disallow.

User-agent: *
Disallow: /cart
Disallow: /checkout/
Disallow: /account/
Disallow: /*?sort=
Disallow: /*.json$
Crawl-delay: 0.5

# Our own demo crawler is welcome a little faster, and to the public API and help pages.
User-agent: PolitelyDemo
User-agent: politely
Disallow: /cart
Disallow: /checkout/
Disallow: /account/
Allow: /account/help
Disallow: /*?sort=
Disallow: /*.json$
Allow: /api/public/*.json$
Crawl-delay: 0.2

User-agent: GreedyBot
Disallow: /

Sitemap: ${origin}/sitemap_index.xml
`;
}

export function buildShop(origins: DemoOrigins): HostSpec {
  const origin = origins.shop;
  const products = demoProducts();
  const resources = new Map<string, Resource>();
  const page = (title: string, main: string): Resource =>
    htmlResource(renderPage({ siteName: SITE, title, nav: NAV, main, footer: demoFooter(origins) }));

  resources.set('/', page('Welcome', homeHtml(products)));
  resources.set('/about', page('About the shop', aboutHtml()));
  resources.set('/account/help', page('Account help', '<p>Forgot your password? Write to help@shop.invalid.</p>'));
  resources.set(
    '/account/',
    page('Your account', `<p>Orders and addresses. ${a('/account/orders', 'Your orders')}</p>`),
  );
  resources.set('/account/orders', page('Your orders', '<p>No orders yet.</p>'));
  resources.set('/checkout/', page('Checkout', '<p>Your basket is empty.</p>'));
  resources.set('/checkout/gift-cards', page('Gift cards', '<p>Gift cards are sold at checkout.</p>'));
  for (const category of DEMO_CATEGORIES) {
    const listed = products.filter((product) => product.category === category.slug && !product.sitemapOnly);
    const pages = Math.ceil(listed.length / PAGE_SIZE);
    for (let n = 1; n <= pages; n++) {
      const html = categoryHtml(category.slug, listed.slice((n - 1) * PAGE_SIZE, n * PAGE_SIZE), n, pages);
      resources.set(categoryPath(category.slug, n), page(`${category.name}${n > 1 ? ` (page ${n})` : ''}`, html));
    }
  }
  for (const product of products)
    resources.set(product.path, page(product.name, productHtml(product, products, origins)));
  addApi(resources, products);
  addSitemaps(resources, origin, products);
  return {
    name: 'shop',
    description:
      'A store: product pages with name, SKU, price, rating (microdata); robots.txt with groups for * and ' +
      'PolitelyDemo, wildcards, $, Allow over Disallow, Crawl-delay; a sitemap index with a gzip sitemap.',
    robotsStatus: 200,
    robotsTxt: shopRobotsTxt(origin),
    resources,
    resolve: (path) =>
      isListingVariant(path) ? page('Sorted listing', '<p>The same products, sorted.</p>') : undefined,
    sitemapFiles: ['/sitemap_index.xml', '/sitemaps/products.xml', '/sitemaps/pages.xml.gz'].map((p) => origin + p),
    sitemapLocs: [...products.map((product) => origin + product.path), ...pageLocs(origin)],
  };
}

const NAV = [
  ['/category/kitchen', 'Kitchen'],
  ['/category/garden', 'Garden'],
  ['/category/books', 'Books'],
  ['/category/tools', 'Tools'],
  ['/about', 'About'],
  ['/cart', 'Cart'],
] as const;

function categoryPath(category: string, page: number): string {
  return page === 1 ? `/category/${category}` : `/category/${category}?page=${page}`;
}

/** Carts and sorted listings answer for any query: links add `?add=SKU` and `?sort=…`. */
function isListingVariant(path: string): boolean {
  return path === '/cart' || path.startsWith('/cart?') || /^\/category\/[a-z]+\?(?:.*&)?sort=/.test(path);
}

function homeHtml(products: readonly DemoProduct[]): string {
  const featured = DEMO_CATEGORIES.map((category) => products.find((p) => p.category === category.slug));
  const cards = featured.flatMap((product) => (product === undefined ? [] : [productCard(product)]));
  return `<p>Hand-picked goods for kitchens, gardens, libraries and workshops.</p>
<h2>Featured</h2>
<ul class="products">${cards.join('\n')}</ul>
<h2>Departments</h2>
${linkList(DEMO_CATEGORIES.map((c) => [`/category/${c.slug}`, c.name] as const))}
<p>${a('/account/help', 'Help with your account')} · ${a('/account/', 'Your account')}</p>`;
}

function productCard(product: DemoProduct): string {
  const price = `<span class="price">€${product.price.toFixed(2)}</span>`;
  return `<li class="product-card" data-sku="${product.sku}">${a(product.path, product.name)} ${price}</li>`;
}

function categoryHtml(category: string, listed: readonly DemoProduct[], page: number, pages: number): string {
  const pager: string[] = [];
  if (page > 1) pager.push(a(categoryPath(category, page - 1), '← Previous page'));
  if (page < pages) pager.push(a(categoryPath(category, page + 1), 'Next page →'));
  return `<p>Sort by: ${a(`/category/${category}?sort=price`, 'price')} · ${a(`/category/${category}?sort=rating`, 'rating')}</p>
<ul class="products">
${listed.map(productCard).join('\n')}
</ul>
<nav class="pager">${pager.join(' ')}</nav>`;
}

function productHtml(product: DemoProduct, products: readonly DemoProduct[], origins: DemoOrigins): string {
  const siblings = products.filter((p) => p.category === product.category && !p.sitemapOnly && p !== product);
  const index = products.indexOf(product);
  const related = siblings.slice(index % 7, (index % 7) + 3);
  const review = articleAbout(product, origins);
  const availability = product.inStock ? 'InStock' : 'OutOfStock';
  const price = product.price.toFixed(2);
  return `<article class="product" itemscope itemtype="https://schema.org/Product">
<h2 itemprop="name">${escapeHtml(product.name)}</h2>
<dl class="facts">
<dt>SKU</dt><dd class="sku" itemprop="sku">${product.sku}</dd>
<dt>Price</dt><dd class="price" itemprop="offers" itemscope itemtype="https://schema.org/Offer"><meta
 itemprop="priceCurrency" content="${product.currency}">€<span itemprop="price" content="${price}">${price}</span><link
 itemprop="availability" href="https://schema.org/${availability}"></dd>
<dt>Rating</dt><dd class="rating" itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating"><span
 itemprop="ratingValue">${product.rating.toFixed(1)}</span> / 5 from <span
 itemprop="reviewCount">${product.reviewCount}</span> reviews</dd>
<dt>Availability</dt><dd class="availability">${product.inStock ? 'In stock' : 'Out of stock'}</dd>
<dt>Category</dt><dd class="category">${a(`/category/${product.category}`, product.category)}</dd>
</dl>
<p itemprop="description">${escapeHtml(product.description)}</p>
<p>${a(`/cart?add=${product.sku}`, 'Add to cart')}</p>
${review === undefined ? '' : `<p>Read the review: ${a(review.url, review.title)}</p>`}
</article>
<h2>You may also like</h2>
<ul class="products">${related.map(productCard).join('\n')}</ul>`;
}

function aboutHtml(): string {
  return `<p>A family business since 1998, now on the loopback interface.</p>
<h2>For developers</h2>
${linkList([
  ['/api/public/catalog.json', 'Public catalogue (JSON, allowed by an Allow rule ending in $)'],
  ['/api/stock.json', 'Stock levels (JSON, disallowed by Disallow: /*.json$)'],
  ['/api/stock.json?fields=sku', 'Stock levels, some fields (the $ anchor does not match a query)'],
])}
<p>Ready to order? ${a('/checkout/', 'Go to checkout')}</p>`;
}

function addApi(resources: Map<string, Resource>, products: readonly DemoProduct[]): void {
  const json = 'application/json; charset=utf-8';
  const catalog = products
    .filter((p) => !p.sitemapOnly)
    .map(({ sku, name, price, currency, path }) => ({ sku, name, price, currency, path }));
  const stock = products.map(({ sku, inStock }) => ({ sku, inStock }));
  resources.set('/api/public/catalog.json', textResource(JSON.stringify({ products: catalog }, null, 1), json));
  resources.set('/api/stock.json', textResource(JSON.stringify({ stock }), json));
  resources.set(
    '/api/stock.json?fields=sku',
    textResource(JSON.stringify({ stock: stock.map(({ sku }) => ({ sku })) }), json),
  );
}

function pageLocs(origin: string): string[] {
  const paths = ['/', '/about', ...DEMO_CATEGORIES.map((c) => `/category/${c.slug}`), '/checkout/gift-cards'];
  return paths.map((path) => origin + path);
}

function addSitemaps(resources: Map<string, Resource>, origin: string, products: readonly DemoProduct[]): void {
  const index = sitemapIndexXml([
    { loc: `${origin}/sitemaps/products.xml`, lastmod: '2026-11-01' },
    { loc: `${origin}/sitemaps/pages.xml.gz`, lastmod: '2026-10-15' },
  ]);
  const productSet = urlsetXml(
    products.map((product) => ({
      loc: origin + product.path,
      lastmod: '2026-10-28',
      changefreq: 'weekly',
      priority: product.sitemapOnly ? 0.9 : 0.6,
    })),
  );
  // A sitemap mistake real sites make: it lists /checkout/gift-cards, which robots.txt disallows.
  const pageSet = urlsetXml(pageLocs(origin).map((loc) => ({ loc, changefreq: 'monthly', priority: 0.4 })));
  resources.set('/sitemap_index.xml', textResource(index, 'application/xml; charset=utf-8'));
  resources.set('/sitemaps/products.xml', textResource(productSet, 'application/xml; charset=utf-8'));
  resources.set('/sitemaps/pages.xml.gz', binaryResource(gzipSync(pageSet), 'application/gzip'));
}
