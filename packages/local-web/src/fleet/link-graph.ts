// The link graph of one fleet host: public pages 0…pages-1 (page 0 is `/`) form a tree with a few
// extra links per page, so every page is reachable from `/` in few hops; private pages hang off
// public ones. Pure arithmetic: nothing is stored per page.

import { hashString } from '@politely/demo-web/internal';

export interface FleetGraph {
  /** Public pages per host, `/` included. */
  readonly pages: number;
  /** Private pages (under /private/) per host. */
  readonly privatePages: number;
  /** Content links per public page. */
  readonly linksPerPage: number;
}

export function publicPath(page: number): string {
  return page === 0 ? '/' : `/pages/${page}`;
}

export function privatePath(page: number): string {
  return `/private/${page}`;
}

/** Children per page in the tree; the rest of a page's links point anywhere. */
export function branching(linksPerPage: number): number {
  return Math.max(1, Math.min(linksPerPage, Math.ceil(linksPerPage * 0.6)));
}

/** The public pages page `page` of host `host` links to, in order, without duplicates or itself. */
export function publicLinks(graph: FleetGraph, host: number, page: number): number[] {
  const fan = branching(graph.linksPerPage);
  const links: number[] = [];
  for (let child = page * fan + 1; child <= page * fan + fan && child < graph.pages; child++) links.push(child);
  const wanted = Math.min(graph.linksPerPage, graph.pages - 1);
  for (let k = 0; links.length < wanted && k < wanted * 4; k++) {
    const target = hashString(`${host}/${page}/${k}`) % graph.pages;
    if (target !== page && !links.includes(target)) links.push(target);
  }
  return links;
}

/** The private page linked from public page `page`, if any: private page j hangs off page j × stride. */
export function privateLinkOf(graph: FleetGraph, page: number): number | undefined {
  if (graph.privatePages === 0) return undefined;
  const stride = Math.max(1, Math.floor(graph.pages / graph.privatePages));
  if (page % stride !== 0) return undefined;
  const target = page / stride;
  return target < graph.privatePages ? target : undefined;
}

/** Private pages beyond what the public pages can carry (more private than public pages) chain on. */
export function nextPrivate(graph: FleetGraph, page: number): number | undefined {
  return page + 1 < graph.privatePages ? page + 1 : undefined;
}
