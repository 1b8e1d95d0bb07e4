// One page of a fleet host, rendered on request: a real-looking page (header nav, article,
// link list, footer) of 2–5 KB, the same bytes on every request.

import { a, renderPage } from '../html.js';
import { createRandom, hashString, paragraph } from '../random.js';
import { htmlResource, type Resource } from '../resource.js';
import { nextPrivate, privateLinkOf, privatePath, publicLinks, publicPath, type FleetGraph } from './link-graph.js';

const POOL_SIZE = 64;
const TOPICS = ['Harbour', 'Orchard', 'Lantern', 'Ledger', 'Meadow', 'Compass', 'Signal', 'Bridge', 'Canvas', 'Station'];
const PAGE = /^\/pages\/([1-9]\d{0,6})$/;
const PRIVATE = /^\/private\/(0|[1-9]\d{0,6})$/;

let pool: readonly string[] | undefined;

/** Paragraphs shared by every page of every fleet: made once, picked by hash. */
function paragraphPool(): readonly string[] {
  if (pool === undefined) {
    const random = createRandom(4242);
    pool = Array.from({ length: POOL_SIZE }, () => paragraph(random));
  }
  return pool;
}

/** The resource at `path` of fleet host `host`, or `undefined` (a 404). */
export function renderFleetPage(
  graph: FleetGraph,
  host: number,
  path: string,
  nextOrigin: string | undefined,
): Resource | undefined {
  if (path === '/') return publicPage(graph, host, 0, nextOrigin);
  const page = PAGE.exec(path);
  if (page !== null) {
    const n = Number(page[1]);
    return n < graph.pages ? publicPage(graph, host, n, undefined) : undefined;
  }
  const hidden = PRIVATE.exec(path);
  if (hidden !== null) {
    const n = Number(hidden[1]);
    return n < graph.privatePages ? privatePage(graph, host, n) : undefined;
  }
  return undefined;
}

function body(host: number, page: number, salt: string): string {
  const paragraphs = paragraphPool();
  const seed = hashString(`${salt}${host}:${page}`);
  const count = 3 + (seed % 3);
  return Array.from({ length: count }, (_, k) => `<p>${paragraphs[(seed + k * 7) % POOL_SIZE] ?? ''}</p>`).join('\n');
}

function titleOf(host: number, page: number): string {
  const topic = TOPICS[hashString(`t${host}:${page}`) % TOPICS.length] ?? 'Page';
  return `${topic} notes, part ${page}`;
}

function nav(graph: FleetGraph): (readonly [string, string])[] {
  const links: (readonly [string, string])[] = [['/', 'Home']];
  if (graph.pages > 1) links.push([publicPath(1), 'Start reading']);
  return links;
}

function publicPage(graph: FleetGraph, host: number, page: number, nextOrigin: string | undefined): Resource {
  const links = publicLinks(graph, host, page).map((n) => `<li>${a(publicPath(n), titleOf(host, n))}</li>`);
  const hidden = privateLinkOf(graph, page);
  if (hidden !== undefined) links.push(`<li>${a(privatePath(hidden), 'Members only')}</li>`);
  const next = nextOrigin === undefined ? '' : `<p>Next site: ${a(`${nextOrigin}/`, 'visit our neighbour')}</p>`;
  const list = `<h2>Read on</h2>\n<ul class="links">\n${links.join('\n')}\n</ul>`;
  const main = `<article>\n${body(host, page, 'p')}\n</article>\n${list}\n${next}`;
  return htmlResource(
    renderPage({
      siteName: `Fleet site ${host}`,
      title: page === 0 ? 'Welcome' : titleOf(host, page),
      nav: nav(graph),
      main,
      footer: `<p>Page ${page + 1} of ${graph.pages}. ${a('/', 'Back to the start')}</p>`,
    }),
  );
}

function privatePage(graph: FleetGraph, host: number, page: number): Resource {
  const next = nextPrivate(graph, page);
  const more = next === undefined ? '' : `<p>${a(privatePath(next), 'More members news')}</p>`;
  return htmlResource(
    renderPage({
      siteName: `Fleet site ${host}`,
      title: `Members area ${page}`,
      nav: nav(graph),
      main: `<article>\n${body(host, page, 'x')}\n</article>\n${more}`,
    }),
  );
}
