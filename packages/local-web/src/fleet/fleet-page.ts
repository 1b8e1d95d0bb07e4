// One page of a fleet host, rendered on request, the same bytes on every request. What a page
// links to comes from the link graph alone (`PageLinks`), and each page profile only dresses
// those links: 'small' pages of 2–5 KB (header nav, article, link list, footer), or
// 'realistic' pages of 20–60 KB (realistic-page.ts). So both profiles crawl the same pages.

import {
  a,
  createRandom,
  hashString,
  htmlResource,
  paragraph,
  type Resource,
  renderPage,
} from '@politely/demo-web/internal';
import { type FleetGraph, nextPrivate, privateLinkOf, privatePath, publicLinks, publicPath } from './link-graph.js';
import type { Link, PageContent } from './page-content.js';
import { renderRealisticPage } from './realistic-page.js';

/**
 * How a fleet page looks: 'small' (2–5 KB: a header nav, an article, a link list, a footer) or
 * 'realistic' (20–60 KB: a head full of meta tags, inline styles and scripts, JSON-LD, menus,
 * long paragraphs, comments, an aside, a footer, 20–60 links). Both link the same pages.
 */
export type FleetPageProfile = 'small' | 'realistic';

export const FLEET_PAGE_PROFILES: readonly FleetPageProfile[] = ['small', 'realistic'];

/** One fleet host, as its pages need it. */
export interface FleetSite {
  readonly graph: FleetGraph;
  /** The host's index in the fleet. */
  readonly host: number;
  /** The host's own origin (`http://127.0.0.2:port`), for canonical and absolute links. */
  readonly origin: string;
  /** The next host's origin, linked from `/` (a ring), or undefined. */
  readonly nextOrigin: string | undefined;
  readonly profile: FleetPageProfile;
}

const POOL_SIZE = 64;
const TOPICS = [
  'Harbour',
  'Orchard',
  'Lantern',
  'Ledger',
  'Meadow',
  'Compass',
  'Signal',
  'Bridge',
  'Canvas',
  'Station',
];
const PAGE = /^\/pages\/([1-9]\d{0,6})$/;
const PRIVATE = /^\/private\/(0|[1-9]\d{0,6})$/;

let pool: readonly string[] | undefined;

/** Paragraphs shared by every small page of every fleet: made once, picked by hash. */
function paragraphPool(): readonly string[] {
  if (pool === undefined) {
    const random = createRandom(4242);
    pool = Array.from({ length: POOL_SIZE }, () => paragraph(random));
  }
  return pool;
}

/** The resource at `path` of the fleet host `site`, or `undefined` (a 404). */
export function renderFleetPage(site: FleetSite, path: string): Resource | undefined {
  const content = contentAt(site, path);
  if (content === undefined) return undefined;
  if (site.profile === 'small') return htmlResource(renderSmallPage(content));
  // Rendered straight to bytes (most of a realistic page is pooled bytes): the same resource htmlResource makes.
  return {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: renderRealisticPage(content, site.origin),
    compressible: true,
  };
}

function contentAt(site: FleetSite, path: string): PageContent | undefined {
  const { graph } = site;
  if (path === '/') return publicContent(site, 0);
  const page = PAGE.exec(path);
  if (page !== null) {
    const n = Number(page[1]);
    return n < graph.pages ? publicContent(site, n) : undefined;
  }
  const hidden = PRIVATE.exec(path);
  if (hidden !== null) {
    const n = Number(hidden[1]);
    return n < graph.privatePages ? privateContent(site, n) : undefined;
  }
  return undefined;
}

export function titleOf(host: number, page: number): string {
  const topic = TOPICS[hashString(`t${host}:${page}`) % TOPICS.length] ?? 'Page';
  return `${topic} notes, part ${page}`;
}

function nav(graph: FleetGraph): Link[] {
  const links: Link[] = [['/', 'Home']];
  if (graph.pages > 1) links.push([publicPath(1), 'Start reading']);
  return links;
}

function publicContent(site: FleetSite, page: number): PageContent {
  const { graph, host } = site;
  const links: Link[] = publicLinks(graph, host, page).map((n) => [publicPath(n), titleOf(host, n)]);
  const hidden = privateLinkOf(graph, page);
  if (hidden !== undefined) links.push([privatePath(hidden), 'Members only']);
  return {
    siteName: `Fleet site ${host}`,
    title: page === 0 ? 'Welcome' : titleOf(host, page),
    path: publicPath(page),
    isPrivate: false,
    nav: nav(graph),
    links,
    nextSite: page === 0 && site.nextOrigin !== undefined ? `${site.nextOrigin}/` : undefined,
    footerHome: true,
    position: `Page ${page + 1} of ${graph.pages}.`,
    seed: hashString(`p${host}:${page}`),
  };
}

function privateContent(site: FleetSite, page: number): PageContent {
  const { graph, host } = site;
  const next = nextPrivate(graph, page);
  return {
    siteName: `Fleet site ${host}`,
    title: `Members area ${page}`,
    path: privatePath(page),
    isPrivate: true,
    nav: nav(graph),
    links: next === undefined ? [] : [[privatePath(next), 'More members news']],
    nextSite: undefined,
    footerHome: false,
    position: undefined,
    seed: hashString(`x${host}:${page}`),
  };
}

// ---------------------------------------------------------------------------------------------
// The small profile: 2–5 KB.

function smallBody(seed: number): string {
  const paragraphs = paragraphPool();
  const count = 3 + (seed % 3);
  return Array.from({ length: count }, (_, k) => `<p>${paragraphs[(seed + k * 7) % POOL_SIZE] ?? ''}</p>`).join('\n');
}

function renderSmallPage(content: PageContent): string {
  const article = `<article>\n${smallBody(content.seed)}\n</article>`;
  if (content.isPrivate) {
    const more = content.links.map(([href, text]) => `<p>${a(href, text)}</p>`).join('');
    return renderPage({
      siteName: content.siteName,
      title: content.title,
      nav: content.nav,
      main: `${article}\n${more}`,
    });
  }
  const items = content.links.map(([href, text]) => `<li>${a(href, text)}</li>`);
  const list = `<h2>Read on</h2>\n<ul class="links">\n${items.join('\n')}\n</ul>`;
  const next = content.nextSite === undefined ? '' : `<p>Next site: ${a(content.nextSite, 'visit our neighbour')}</p>`;
  return renderPage({
    siteName: content.siteName,
    title: content.title,
    nav: content.nav,
    main: `${article}\n${list}\n${next}`,
    footer: `<p>${content.position ?? ''} ${a('/', 'Back to the start')}</p>`,
  });
}
