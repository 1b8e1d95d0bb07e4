// The render web's two sites:
// - app: a JavaScript catalogue. Every page is the same shell (title "Loading…", an empty
//   <div id="app">, /static/app.js and the cdn's widget.js); app.js fetches the JSON API and
//   renders title, links and pictures, so a crawler that does not run scripts finds nothing.
//   It also sends what a polite renderer must refuse: a tracking beacon robots.txt disallows, a
//   beacon to a private address, a WebSocket.
// - cdn: a third-party script host with its own robots.txt (Crawl-delay 0.2): widget.js is
//   allowed, the analytics.js it loads is not.

import type { HostSpec } from '../host-spec.js';
import { binaryResource, type Resource, textResource } from '../resource.js';
import { solidPng } from './png.js';
import {
  categoryPageCount,
  productsIn,
  RENDER_CATEGORIES,
  RENDER_PAGE_SIZE,
  RENDER_PRIVATE_URL,
  RENDER_SHELL_TITLE,
  RENDER_SITE_NAME,
  type RenderOrigins,
  type RenderPageTruth,
  renderProducts,
} from './render-truth.js';

/** The robots.txt of the render web's JavaScript shop. */
export const APP_ROBOTS_TXT = `# App Shop: crawlers welcome, but not in our analytics or your account.
User-agent: *
Disallow: /api/tracking
Disallow: /private/
`;

/** The robots.txt of the render web's third-party script host. */
export const CDN_ROBOTS_TXT = `# Loopback Widgets: our scripts may be fetched, our analytics may not.
User-agent: *
Allow: /lib/widget.js
Disallow: /lib/analytics.js
Crawl-delay: 0.2
`;

const JS = 'text/javascript; charset=utf-8';

/** Scripts are served as real sites serve their static files: cacheable for a while. */
const STATIC_CACHE_CONTROL = 'public, max-age=600';

/** A script, with the caching a browser (or a crawl's cache) honours. */
function script(source: string): Resource {
  const resource = textResource(source, JS);
  return { ...resource, headers: { ...resource.headers, 'cache-control': STATIC_CACHE_CONTROL } };
}
const JSON_TYPE = 'application/json; charset=utf-8';

/** The shell every page of the app host serves: no content, no links, only scripts. */
export function shellHtml(origins: RenderOrigins): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${RENDER_SHELL_TITLE}</title>
<link rel="icon" href="data:,">
<style>body{font-family:system-ui,sans-serif;margin:0 1.5rem;line-height:1.5;color:#222}nav a{margin-right:1rem}.widget{background:#f4f4f6;padding:.5rem}</style>
</head>
<body>
<div id="app"></div>
<noscript>${RENDER_SITE_NAME} needs JavaScript.</noscript>
<script src="/static/app.js"></script>
<script src="${origins.cdn}/lib/widget.js"></script>
</body>
</html>
`;
}

// Plain browser JavaScript, no build step: it routes by location, fetches the JSON API and
// renders. Titles and links are written the way render-truth.ts states them.
export const APP_JS = `// ${RENDER_SITE_NAME}: every page is rendered here from the JSON API.
(() => {
  'use strict';
  const SITE = ${JSON.stringify(RENDER_SITE_NAME)};
  const root = document.getElementById('app');
  const here = location.pathname + location.search;

  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
    node.append(...children);
    return node;
  };
  const link = (href, text) => el('a', { href }, text);
  const list = (items) => el('ul', {}, ...items.map((item) => el('li', {}, item)));
  const getJson = async (url) => {
    const response = await fetch(url, { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(url + ' answered ' + response.status);
    return response.json();
  };
  const show = (title, ...content) => {
    const nav = el('nav', {}, link('/', SITE), link('/private/orders', 'Your orders'));
    root.replaceChildren(nav, el('main', {}, el('h1', {}, title), ...content));
  };

  // Analytics: robots.txt disallows /api/tracking, a polite renderer drops it.
  fetch('/api/tracking?page=' + encodeURIComponent(here), { keepalive: true }).catch(() => {});
  // A beacon to a private address: a crawler's address guard must refuse it.
  fetch(${JSON.stringify(RENDER_PRIVATE_URL)}, { mode: 'no-cors' }).catch(() => {});
  // Live stock updates: a polite renderer opens no WebSocket.
  try {
    const socket = new WebSocket('ws://' + location.host + '/live');
    socket.addEventListener('error', () => {});
  } catch {}

  const home = async () => {
    const catalogue = await getJson('/api/catalogue');
    show('Catalogue', list(catalogue.categories.map((c) => link('/category/' + c.slug, c.name + ' (' + c.products + ')'))));
    document.title = 'Catalogue — ' + catalogue.products + ' products';
  };

  const category = async (slug, page) => {
    const data = await getJson('/api/categories/' + slug + '?page=' + page);
    const pager = [];
    if (data.page > 1) pager.push(link(data.page === 2 ? '/category/' + slug : '/category/' + slug + '?page=' + (data.page - 1), 'Previous page'));
    if (data.page < data.pages) pager.push(link('/category/' + slug + '?page=' + (data.page + 1), 'Next page'));
    show(data.name, list(data.products.map((p) => link('/products/' + p.id, p.name + ', ' + p.price.toFixed(2) + ' EUR'))), el('p', { class: 'pager' }, ...pager));
    document.title = (data.page === 1 ? data.name : data.name + ', page ' + data.page) + ' — ' + SITE;
  };

  const product = async (id) => {
    const data = await getJson('/api/products/' + id);
    show(
      data.name,
      el('img', { src: data.image, alt: data.name, width: '160', height: '160' }),
      el('p', { class: 'price' }, data.price.toFixed(2) + ' ' + data.currency),
      el('p', { class: 'description' }, data.description),
      el('p', {}, 'More ', link('/category/' + data.category.slug, data.category.name)),
    );
    document.title = data.name + ' — ' + SITE;
  };

  const categoryMatch = /^\\/category\\/([a-z-]+)$/.exec(location.pathname);
  const productMatch = /^\\/products\\/([a-z0-9-]+)$/.exec(location.pathname);
  const rendered =
    location.pathname === '/' ? home()
    : categoryMatch !== null ? category(categoryMatch[1], Number(new URLSearchParams(location.search).get('page') ?? '1'))
    : productMatch !== null ? product(productMatch[1])
    : Promise.reject(new Error('no such page'));
  rendered.catch((error) => {
    show('Something went wrong', el('p', {}, String(error)));
    document.title = 'Error — ' + SITE;
  });
})();
`;

// The third-party widget: a banner, and its analytics, loaded from next to itself.
export const WIDGET_JS = `// Loopback Widgets: a delivery banner for any shop.
(() => {
  const self = document.currentScript;
  const banner = document.createElement('aside');
  banner.className = 'widget';
  banner.textContent = 'Free delivery on orders over 50 EUR.';
  document.body.append(banner);
  // Our analytics: the widget host's robots.txt disallows it.
  const analytics = document.createElement('script');
  analytics.src = new URL('analytics.js', self.src).href;
  analytics.async = true;
  document.head.append(analytics);
})();
`;

export const ANALYTICS_JS = `// Loopback Widgets analytics: counts page views.
window.loopbackAnalytics = { loaded: true, page: location.href };
`;

const json = (value: unknown): Resource => textResource(`${JSON.stringify(value, null, 2)}\n`, JSON_TYPE);

function appResources(origins: RenderOrigins, pages: readonly RenderPageTruth[]): Map<string, Resource> {
  const resources = new Map<string, Resource>();
  const shell = textResource(shellHtml(origins), 'text/html; charset=utf-8');
  for (const page of pages) resources.set(page.path, shell);
  resources.set('/static/app.js', script(APP_JS));
  const products = renderProducts();
  resources.set(
    '/api/catalogue',
    json({
      name: RENDER_SITE_NAME,
      products: products.length,
      categories: RENDER_CATEGORIES.map((category) => ({
        slug: category.slug,
        name: category.name,
        products: productsIn(category.slug).length,
      })),
    }),
  );
  for (const category of RENDER_CATEGORIES) {
    const inCategory = productsIn(category.slug);
    const count = categoryPageCount(category.slug);
    for (let page = 1; page <= count; page++) {
      const shown = inCategory.slice((page - 1) * RENDER_PAGE_SIZE, page * RENDER_PAGE_SIZE);
      resources.set(
        `/api/categories/${category.slug}?page=${page}`,
        json({
          slug: category.slug,
          name: category.name,
          page,
          pages: count,
          products: shown.map((product) => ({ id: product.id, name: product.name, price: product.price })),
        }),
      );
    }
  }
  for (const product of products) {
    const category = RENDER_CATEGORIES.find((c) => c.slug === product.category);
    resources.set(
      `/api/products/${product.id}`,
      json({
        id: product.id,
        name: product.name,
        price: product.price,
        currency: 'EUR',
        description: product.description,
        category: { slug: product.category, name: category?.name ?? product.category },
        image: `/images/${product.id}.png`,
      }),
    );
    resources.set(`/images/${product.id}.png`, binaryResource(solidPng(product.colour), 'image/png'));
  }
  return resources;
}

/** The app and cdn hosts, in `RENDER_HOST_NAMES` order, serving `pages` (render-truth.ts). */
export function buildRenderSites(origins: RenderOrigins, pages: readonly RenderPageTruth[]): HostSpec[] {
  const beacon = json({ ok: true });
  const app: HostSpec = {
    name: 'app',
    description: `A JavaScript catalogue: every page is a shell ("${RENDER_SHELL_TITLE}", no links) that /static/app.js renders from a JSON API; it also sends a tracking beacon robots.txt disallows, a beacon to ${RENDER_PRIVATE_URL} and a WebSocket.`,
    robotsStatus: 200,
    robotsTxt: APP_ROBOTS_TXT,
    resources: appResources(origins, pages),
    // The tracking beacon carries the page in its query: one answer for all of them.
    resolve: (path) => (path === '/api/tracking' || path.startsWith('/api/tracking?') ? beacon : undefined),
  };
  const cdn: HostSpec = {
    name: 'cdn',
    description:
      'A third-party script host with its own robots.txt (Crawl-delay 0.2): /lib/widget.js allowed, the /lib/analytics.js it loads disallowed.',
    robotsStatus: 200,
    robotsTxt: CDN_ROBOTS_TXT,
    resources: new Map([
      ['/lib/widget.js', script(WIDGET_JS)],
      ['/lib/analytics.js', script(ANALYTICS_JS)],
    ]),
  };
  return [app, cdn];
}
