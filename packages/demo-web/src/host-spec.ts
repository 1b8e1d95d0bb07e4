// What one host serves, before it is bound to an address: its robots.txt, its resources by path,
// and the facts the manifest needs (traps, sitemap contents).

import type { IncomingHttpHeaders } from 'node:http';
import { notFoundResource, type Resource, statusResource, textResource } from './resource.js';

export interface HostSpec {
  readonly name: string;
  readonly description: string;
  /** Status of `/robots.txt`: 200 serves `robotsTxt`, 404 means allow all, 5xx disallow all. */
  readonly robotsStatus: number;
  /** The robots.txt body (used when `robotsStatus` is 200). */
  readonly robotsTxt: string;
  /** Resources by path and query, exactly as requested (`/category/garden?page=2`). */
  readonly resources: ReadonlyMap<string, Resource>;
  /**
   * An answer that depends on the request's headers (a consent wall reads the Cookie header),
   * asked before `resources` for every path but `/robots.txt`; `undefined` to serve `resources`.
   */
  readonly answer?: (path: string, headers: IncomingHttpHeaders) => Resource | undefined;
  /** Resources generated on request (traps, fleets); `undefined` for a 404. */
  readonly resolve?: (path: string) => Resource | undefined;
  /** Path prefixes of crawler traps. */
  readonly trapPrefixes?: readonly string[];
  /** Absolute URLs of every sitemap file this host serves, nested ones included. */
  readonly sitemapFiles?: readonly string[];
  /** Absolute URLs listed in those sitemap files (`<loc>`, feed items, text lines). */
  readonly sitemapLocs?: readonly string[];
}

/** The resource at `path` on this host, `/robots.txt` included, or a 404 page. */
export function resourceAt(spec: HostSpec, path: string): Resource {
  if (path === '/robots.txt') return robotsResource(spec);
  return spec.resources.get(path) ?? spec.resolve?.(path) ?? notFoundResource(path);
}

const robotsCache = new WeakMap<HostSpec, Resource>();

function robotsResource(spec: HostSpec): Resource {
  let resource = robotsCache.get(spec);
  if (resource === undefined) {
    if (spec.robotsStatus === 200) resource = textResource(spec.robotsTxt, 'text/plain; charset=utf-8');
    else if (spec.robotsStatus === 404) resource = notFoundResource('/robots.txt');
    else resource = statusResource(spec.robotsStatus, 'Service temporarily unavailable, try again later.\n');
    robotsCache.set(spec, resource);
  }
  return resource;
}
