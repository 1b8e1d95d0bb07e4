// The truth behind the render web: its catalogue, and for every page what a browser shows once
// app.js has run (title, links) and every request rendering it makes. The sites are built from
// the same data (render-sites.ts), and the tests load them in Chromium against it, so the truth
// cannot drift from what renders. `judgeRenderCrawl` turns it into what a polite crawl must do.

import type { RobotsFacts } from '../robots-facts.js';

/** The render web's hosts, in address order (127.0.0.100–101 by default). */
export const RENDER_HOST_NAMES = ['app', 'cdn'] as const;

/** The name of a site of the render web (`app`, `cdn`). */
export type RenderHostName = (typeof RENDER_HOST_NAMES)[number];

/** Origins of the render hosts by name (`http://127.0.0.x:port`). */
export type RenderOrigins = Readonly<Record<RenderHostName, string>>;

/** The `<title>` of every page as served, before any script has run. */
export const RENDER_SHELL_TITLE = 'Loading…';

/** The shop's name, the end of every rendered title but the front page's. */
export const RENDER_SITE_NAME = 'App Shop';

/**
 * Where app.js sends a beacon on every page: a private address no crawl of the web allows, so a
 * crawler's address guard must refuse it (nothing listens there).
 */
export const RENDER_PRIVATE_URL = 'http://10.255.255.1/collect';

/** Products per category page; the rest are on `?page=2`, … */
export const RENDER_PAGE_SIZE = 3;

/** A category of the render web's JavaScript shop. */
export interface RenderCategory {
  readonly slug: string;
  readonly name: string;
}

/** A product of the render web's JavaScript shop, which only a rendered page shows. */
export interface RenderProduct {
  readonly id: string;
  readonly name: string;
  /** The category's slug. */
  readonly category: string;
  /** In euros, two decimals. */
  readonly price: number;
  readonly description: string;
  /** The colour of its picture (`/images/<id>.png`, a solid square), `#rrggbb`. */
  readonly colour: string;
}

/** The categories of the render web's JavaScript shop. */
export const RENDER_CATEGORIES: readonly RenderCategory[] = [
  { slug: 'lamps', name: 'Lamps' },
  { slug: 'chairs', name: 'Chairs' },
  { slug: 'rugs', name: 'Rugs' },
];

const PRODUCTS: readonly RenderProduct[] = [
  {
    id: 'brass-desk-lamp',
    name: 'Brass desk lamp',
    category: 'lamps',
    price: 89,
    description: 'A hinged arm and a warm bulb.',
    colour: '#c9a227',
  },
  {
    id: 'paper-lantern',
    name: 'Paper lantern',
    category: 'lamps',
    price: 24.5,
    description: 'Rice paper on a bamboo frame.',
    colour: '#f2e8cf',
  },
  {
    id: 'reading-floor-lamp',
    name: 'Reading floor lamp',
    category: 'lamps',
    price: 139,
    description: 'Tall, dimmable, quiet.',
    colour: '#3d405b',
  },
  {
    id: 'clip-on-spotlight',
    name: 'Clip-on spotlight',
    category: 'lamps',
    price: 19.9,
    description: 'Clamps to any shelf.',
    colour: '#e07a5f',
  },
  {
    id: 'oak-dining-chair',
    name: 'Oak dining chair',
    category: 'chairs',
    price: 175,
    description: 'Solid oak, oiled.',
    colour: '#a47148',
  },
  {
    id: 'folding-stool',
    name: 'Folding stool',
    category: 'chairs',
    price: 35,
    description: 'Folds flat behind a door.',
    colour: '#81b29a',
  },
  {
    id: 'wicker-armchair',
    name: 'Wicker armchair',
    category: 'chairs',
    price: 210,
    description: 'Woven by hand.',
    colour: '#d4a373',
  },
  {
    id: 'office-chair',
    name: 'Office chair',
    category: 'chairs',
    price: 249,
    description: 'Adjustable in five ways.',
    colour: '#264653',
  },
  {
    id: 'wool-runner',
    name: 'Wool runner',
    category: 'rugs',
    price: 120,
    description: 'For a long hallway.',
    colour: '#9c6644',
  },
  {
    id: 'jute-round-rug',
    name: 'Jute round rug',
    category: 'rugs',
    price: 79,
    description: 'Natural fibre, 120 cm across.',
    colour: '#ccd5ae',
  },
  {
    id: 'striped-kilim',
    name: 'Striped kilim',
    category: 'rugs',
    price: 160,
    description: 'Flat-woven, reversible.',
    colour: '#bc4749',
  },
  {
    id: 'bath-mat',
    name: 'Cotton bath mat',
    category: 'rugs',
    price: 22,
    description: 'Dries overnight.',
    colour: '#8ecae6',
  },
];

/** Every product of the render web (a copy), in catalogue order. */
export function renderProducts(): RenderProduct[] {
  return PRODUCTS.map((product) => ({ ...product }));
}

/** The products of a category, in catalogue order. */
export function productsIn(category: string): RenderProduct[] {
  return PRODUCTS.filter((product) => product.category === category).map((product) => ({ ...product }));
}

export function categoryPageCount(category: string): number {
  return Math.max(1, Math.ceil(productsIn(category).length / RENDER_PAGE_SIZE));
}

/** The path of a category page: page 1 has no query (as app.js links it), page N `?page=N`. */
export function categoryPath(category: string, page: number): string {
  return page === 1 ? `/category/${category}` : `/category/${category}?page=${page}`;
}

/** The kinds of request a rendering crawl makes (Playwright's resource types, plus the crawler's own robots.txt). */
export type RenderRequestType = 'robots' | 'document' | 'script' | 'fetch' | 'image' | 'websocket';

/** One request a page asks for while it renders. */
export interface RenderSubrequest {
  /** Absolute URL (`ws:` for the WebSocket). */
  readonly url: string;
  readonly type: Exclude<RenderRequestType, 'robots' | 'document'>;
}

/** One page of the app host and what rendering it shows and asks for. */
export interface RenderPageTruth {
  /** Absolute URL of the page (served as the shell). */
  readonly url: string;
  /** Path and query on the app host. */
  readonly path: string;
  /** `document.title` once app.js has rendered it (the served title is `RENDER_SHELL_TITLE`). */
  readonly title: string;
  /** The `href`s of the rendered `<a>` elements, absolute, each once, in document order; the served HTML has none. */
  readonly links: readonly string[];
  /**
   * Every request rendering the page makes, in no particular order, as a browser without rules
   * makes them: scripts (widget.js loads analytics.js), the JSON API, the picture, the tracking
   * beacon, the beacon to `RENDER_PRIVATE_URL`, the WebSocket.
   */
  readonly subrequests: readonly RenderSubrequest[];
}

/** The API URL app.js fetches for a page path. */
function apiPath(path: string): string {
  const url = new URL(path, 'http://x');
  const category = /^\/category\/([a-z-]+)$/.exec(url.pathname);
  if (category !== null) return `/api/categories/${category[1] ?? ''}?page=${url.searchParams.get('page') ?? '1'}`;
  const product = /^\/products\/([a-z0-9-]+)$/.exec(url.pathname);
  if (product !== null) return `/api/products/${product[1] ?? ''}`;
  return '/api/catalogue';
}

/** The tracking beacon app.js sends from a page (robots.txt disallows `/api/tracking`). */
export function trackingPath(path: string): string {
  return `/api/tracking?page=${encodeURIComponent(path)}`;
}

/** Every page of the app host with what rendering it shows and asks for, front page first. */
export function renderPageTruths(origins: RenderOrigins): RenderPageTruth[] {
  const app = origins.app;
  const abs = (path: string): string => `${app}${path}`;
  const nav = ['/', '/private/orders'];
  const page = (path: string, title: string, links: readonly string[], image?: string): RenderPageTruth => {
    const subrequests: RenderSubrequest[] = [
      { url: abs('/static/app.js'), type: 'script' },
      { url: `${origins.cdn}/lib/widget.js`, type: 'script' },
      { url: `${origins.cdn}/lib/analytics.js`, type: 'script' },
      { url: abs(apiPath(path)), type: 'fetch' },
      { url: abs(trackingPath(path)), type: 'fetch' },
      { url: RENDER_PRIVATE_URL, type: 'fetch' },
      { url: `${app.replace(/^http:/, 'ws:')}/live`, type: 'websocket' },
    ];
    if (image !== undefined) subrequests.push({ url: abs(image), type: 'image' });
    return { url: abs(path), path, title, links: [...new Set([...nav, ...links])].map(abs), subrequests };
  };
  const pages: RenderPageTruth[] = [
    page(
      '/',
      `Catalogue — ${PRODUCTS.length} products`,
      RENDER_CATEGORIES.map((category) => `/category/${category.slug}`),
    ),
  ];
  for (const category of RENDER_CATEGORIES) {
    const products = productsIn(category.slug);
    const count = categoryPageCount(category.slug);
    for (let n = 1; n <= count; n++) {
      const shown = products
        .slice((n - 1) * RENDER_PAGE_SIZE, n * RENDER_PAGE_SIZE)
        .map((product) => `/products/${product.id}`);
      const pager = [
        ...(n > 1 ? [categoryPath(category.slug, n - 1)] : []),
        ...(n < count ? [categoryPath(category.slug, n + 1)] : []),
      ];
      const title =
        n === 1 ? `${category.name} — ${RENDER_SITE_NAME}` : `${category.name}, page ${n} — ${RENDER_SITE_NAME}`;
      pages.push(page(categoryPath(category.slug, n), title, [...shown, ...pager]));
    }
  }
  for (const product of PRODUCTS) {
    pages.push(
      page(
        `/products/${product.id}`,
        `${product.name} — ${RENDER_SITE_NAME}`,
        [`/category/${product.category}`],
        `/images/${product.id}.png`,
      ),
    );
  }
  return pages;
}

/** A request a polite rendering crawl makes. */
export interface RenderRequestTruth {
  readonly url: string;
  readonly host: RenderHostName;
  readonly type: RenderRequestType;
}

/** Why a polite rendering crawl never makes a request. */
export type RenderRefusal =
  /** The robots.txt of its host disallows it. */
  | 'robots-disallowed'
  /** Its address is none of the web's hosts (a private address): the crawl's address guard refuses it. */
  | 'address-not-allowed'
  /** A WebSocket: a polite renderer opens none. */
  | 'websocket';

/** A request a polite rendering crawl must never make (the servers' logs must not show it). */
export interface RenderRefusedRequest {
  readonly url: string;
  readonly type: RenderRequestType;
  readonly reason: RenderRefusal;
  /** The pages that link to it or ask for it while rendering, sorted. */
  readonly from: readonly string[];
}

/** What a complete, polite crawl with rendering from `entryUrl` must do, for one user agent. */
export interface RenderCrawlTruth {
  readonly userAgent: string;
  readonly entryUrl: string;
  /** The pages it loads and renders (reached by rendered links, allowed), in breadth-first order from `entryUrl`. */
  readonly pages: readonly RenderPageTruth[];
  /** The rendered title of every page it loads, by URL. */
  readonly renderedTitles: Readonly<Record<string, string>>;
  /** Every link of those pages' rendered DOM (none is in the served HTML), disallowed ones included. Sorted. */
  readonly renderedOnlyLinks: readonly string[];
  /**
   * Every request it makes, each once: each host's robots.txt, the pages, and their allowed
   * scripts, API fetches and pictures. Sorted by URL.
   */
  readonly requested: readonly RenderRequestTruth[];
  /** What it must never request: robots.txt-disallowed URLs (on both hosts), the private address, the WebSocket. Sorted by URL. */
  readonly neverRequested: readonly RenderRefusedRequest[];
  /** The origins whose robots.txt it must request before anything else from them, in the order a crawl meets them. */
  readonly robotsFirst: readonly string[];
}

/** One host as the judge sees it: its name, origin, and robots.txt for the user agent. */
export interface JudgedHost {
  readonly name: RenderHostName;
  readonly origin: string;
  readonly facts: RobotsFacts;
}

/**
 * Walks the rendered link graph from `entryUrl` as a complete, polite crawl with rendering does,
 * and sorts every request into made and never made.
 */
export function judgeRenderCrawl(
  pages: readonly RenderPageTruth[],
  entryUrl: string,
  hosts: readonly JudgedHost[],
  userAgent: string,
): RenderCrawlTruth {
  const byUrl = new Map(pages.map((page) => [page.url, page]));
  const hostOf = (url: string): JudgedHost | undefined => {
    const origin = new URL(url).origin;
    return hosts.find((host) => host.origin === origin);
  };
  const requested = new Map<string, RenderRequestTruth>();
  const refused = new Map<string, { type: RenderRequestType; reason: RenderRefusal; from: Set<string> }>();
  const robotsFirst: string[] = [];
  const refuse = (url: string, type: RenderRequestType, reason: RenderRefusal, from: string): void => {
    const entry = refused.get(url) ?? { type, reason, from: new Set<string>() };
    entry.from.add(from);
    refused.set(url, entry);
  };
  // A request to a host of the web: its robots.txt first, then the request if robots.txt allows it.
  const ask = (url: string, type: RenderRequestType, from: string): boolean => {
    const host = hostOf(url);
    if (host === undefined) {
      refuse(url, type, 'address-not-allowed', from);
      return false;
    }
    if (!robotsFirst.includes(host.origin)) {
      robotsFirst.push(host.origin);
      requested.set(`${host.origin}/robots.txt`, { url: `${host.origin}/robots.txt`, host: host.name, type: 'robots' });
    }
    if (!host.facts.isAllowed(url)) {
      refuse(url, type, 'robots-disallowed', from);
      return false;
    }
    if (!requested.has(url)) requested.set(url, { url, host: host.name, type });
    return true;
  };
  const loaded: RenderPageTruth[] = [];
  // Who links each URL: a refused link names every page that has it.
  const linkedFrom = new Map<string, Set<string>>([[entryUrl, new Set([entryUrl])]]);
  const queue = [entryUrl];
  for (let head = 0; head < queue.length; head++) {
    const url = queue[head] as string;
    if (!ask(url, 'document', url)) continue;
    const page = byUrl.get(url);
    if (page === undefined) continue;
    loaded.push(page);
    for (const sub of page.subrequests) {
      if (sub.type === 'websocket') refuse(sub.url, sub.type, 'websocket', page.url);
      else ask(sub.url, sub.type, page.url);
    }
    for (const link of page.links) {
      const linkers = linkedFrom.get(link);
      if (linkers !== undefined) {
        linkers.add(page.url);
        continue;
      }
      linkedFrom.set(link, new Set([page.url]));
      queue.push(link);
    }
  }
  for (const [url, entry] of refused) if (entry.type === 'document') entry.from = linkedFrom.get(url) ?? entry.from;
  const byUrlOrder = <T extends { url: string }>(list: T[]): T[] =>
    list.sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  return {
    userAgent,
    entryUrl,
    pages: loaded,
    renderedTitles: Object.fromEntries(loaded.map((page) => [page.url, page.title])),
    renderedOnlyLinks: [...new Set(loaded.flatMap((page) => page.links))].sort(),
    requested: byUrlOrder([...requested.values()]),
    neverRequested: byUrlOrder(
      [...refused].map(([url, entry]) => ({
        url,
        type: entry.type,
        reason: entry.reason,
        from: [...entry.from].sort(),
      })),
    ),
    robotsFirst,
  };
}
