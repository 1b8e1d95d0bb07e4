// startFleet: a generated web of many small hosts for benchmarks. Pages are rendered on request
// from shared pools of text (small pages: a few microseconds each; realistic pages of 20–60 KB:
// a few tens), so a fleet of 250 hosts × 200 pages costs almost no memory and serves thousands
// of pages a second.

import { type LocalWeb, LocalWebError } from '@politely/demo-web';
import {
  checkAddressRange,
  checkCacheControl,
  checkPort,
  type HostPaths,
  type HostSpec,
  MAX_ADDRESS_OCTET,
  type Resource,
  startLocalWeb,
  textResource,
  urlsetXml,
} from '@politely/demo-web/internal';
import { FLEET_PAGE_PROFILES, type FleetPageProfile, renderFleetPage } from './fleet-page.js';
import { type FleetGraph, privatePath, publicPath } from './link-graph.js';

export interface FleetOptions {
  /** Number of hosts, each on its own address 127.0.0.(firstAddress + i). At most 253. */
  readonly hosts: number;
  /** Public pages per host, `/` included; all reachable from `/`. */
  readonly pagesPerHost: number;
  /**
   * `Crawl-delay` (seconds) in every host's robots.txt; `undefined` writes no Crawl-delay line.
   * @default undefined
   */
  readonly crawlDelaySeconds?: number;
  /**
   * Content links per public page (navigation links come on top): a tree with
   * ceil(0.6 × linksPerPage) children per page, the rest pointing anywhere on the host.
   * @default 5
   */
  readonly linksPerPage?: number;
  /**
   * Private pages per public page (rounded, at least one when above 0). They live under
   * `/private/`, are linked from public pages, and robots.txt disallows them.
   * @default 0.1
   */
  readonly disallowFraction?: number;
  /**
   * Serve `/sitemap.xml` listing every public page, and declare it with a `Sitemap:` line.
   * @default false
   */
  readonly sitemaps?: boolean;
  /**
   * Link each host's `/` to the next host's `/` (in a ring), so one seed reaches the whole fleet.
   * @default true
   */
  readonly crossHostLinks?: boolean;
  /**
   * Last octet of the first host's address.
   * @default 2
   */
  readonly firstAddress?: number;
  /**
   * The TCP port of every host; 0 lets the OS pick one free port shared by all hosts.
   * @default 0
   */
  readonly port?: number;
  /**
   * Gzip pages for clients that accept it (costs server CPU, which benchmarks share).
   * @default false
   */
  readonly gzip?: boolean;
  /**
   * The user agent the manifest is computed for.
   * @default 'PolitelyDemo'
   */
  readonly userAgent?: string;
  /**
   * What the pages look like. `'small'`: 2–5 KB (a header nav, an article, a link list, a
   * footer). `'realistic'`: 20–60 KB, like a real site's (a head of meta tags, a canonical link,
   * an inline stylesheet, minified inline scripts and JSON-LD; menus, breadcrumbs, long sections,
   * share links, comments, an aside, a footer; HTML comments; 20–60 links with the default
   * `linksPerPage`). Both link the same pages: a realistic page's other links are fragments,
   * pages it links anyway, `mailto:`/`tel:`/`javascript:` and origins outside the fleet
   * (`*.example`), so a crawl scoped to the fleet's hosts fetches the same pages either way.
   * @default 'small'
   */
  readonly pageProfile?: FleetPageProfile;
  /**
   * A `Cache-Control` value for every 200 (and 304). Without one a recrawl revalidates every page.
   * @default undefined
   */
  readonly cacheControl?: string;
}

export type ResolvedFleetOptions = Required<Omit<FleetOptions, 'crawlDelaySeconds' | 'cacheControl'>> &
  Pick<FleetOptions, 'crawlDelaySeconds' | 'cacheControl'>;

export function resolveFleetOptions(options: FleetOptions): ResolvedFleetOptions {
  const resolved = {
    hosts: options.hosts,
    pagesPerHost: options.pagesPerHost,
    linksPerPage: options.linksPerPage ?? 5,
    disallowFraction: options.disallowFraction ?? 0.1,
    sitemaps: options.sitemaps ?? false,
    crossHostLinks: options.crossHostLinks ?? true,
    firstAddress: options.firstAddress ?? 2,
    port: options.port ?? 0,
    gzip: options.gzip ?? false,
    userAgent: options.userAgent ?? 'PolitelyDemo',
    pageProfile: options.pageProfile ?? 'small',
    ...(options.crawlDelaySeconds === undefined ? {} : { crawlDelaySeconds: options.crawlDelaySeconds }),
    ...(options.cacheControl === undefined ? {} : { cacheControl: options.cacheControl }),
  };
  const check = (ok: boolean, name: string, wanted: string, value: unknown): void => {
    if (!ok)
      throw new LocalWebError('ERR_INVALID_OPTION', `startFleet: ${name} must be ${wanted}, got ${String(value)}`);
  };
  const { hosts, pagesPerHost, linksPerPage, disallowFraction, crawlDelaySeconds: delay } = resolved;
  check(Number.isInteger(hosts) && hosts >= 1, 'hosts', 'a positive integer', hosts);
  const pagesOk = Number.isInteger(pagesPerHost) && pagesPerHost >= 1 && pagesPerHost <= 1_000_000;
  check(pagesOk, 'pagesPerHost', 'an integer in 1–1000000', pagesPerHost);
  check(Number.isInteger(linksPerPage) && linksPerPage >= 1, 'linksPerPage', 'a positive integer', linksPerPage);
  check(disallowFraction >= 0 && disallowFraction <= 1, 'disallowFraction', 'a number in 0–1', disallowFraction);
  check(delay === undefined || (Number.isFinite(delay) && delay >= 0), 'crawlDelaySeconds', 'a number ≥ 0', delay);
  check(
    FLEET_PAGE_PROFILES.includes(resolved.pageProfile),
    'pageProfile',
    `one of ${FLEET_PAGE_PROFILES.join(', ')}`,
    resolved.pageProfile,
  );
  checkPort(resolved.port, 'startFleet');
  checkCacheControl(resolved.cacheControl, 'startFleet');
  checkAddressRange(resolved.firstAddress, resolved.hosts, 'startFleet');
  return resolved;
}

/** The number of private pages per host for these options. */
function privatePageCount(options: ResolvedFleetOptions): number {
  return options.disallowFraction === 0 ? 0 : Math.max(1, Math.round(options.pagesPerHost * options.disallowFraction));
}

function fleetRobotsTxt(options: ResolvedFleetOptions, name: string, origin: string): string {
  const lines = [`# ${name} of a politely benchmark fleet`, 'User-agent: *', 'Disallow: /private/'];
  if (options.crawlDelaySeconds !== undefined) lines.push(`Crawl-delay: ${options.crawlDelaySeconds}`);
  if (options.sitemaps) lines.push('', `Sitemap: ${origin}/sitemap.xml`);
  return lines.join('\n') + '\n';
}

/**
 * Starts a fleet of `hosts` generated hosts for benchmarks (up to 253, on 127.0.0.2–254 by
 * default from 127.0.0.2). Every host has `pagesPerHost` public pages reachable from `/`, private
 * pages under the disallowed `/private/`, and an optional crawl-delay and sitemap.
 * Two fleets side by side (say one slow host beside forty fast ones) take two calls with
 * different `firstAddress`.
 */
export async function startFleet(options: FleetOptions): Promise<LocalWeb> {
  const resolved = resolveFleetOptions(options);
  const graph: FleetGraph = {
    pages: resolved.pagesPerHost,
    privatePages: privatePageCount(resolved),
    linksPerPage: resolved.linksPerPage,
  };
  const publicPaths = Array.from({ length: graph.pages }, (_, n) => publicPath(n));
  const privatePaths = Array.from({ length: graph.privatePages }, (_, n) => privatePath(n));
  const paths: HostPaths = {
    expectedAllowedPaths: [...publicPaths].sort(),
    disallowedKnownPaths: [...privatePaths].sort(),
    nofollowPaths: [],
    sitemapOnlyPaths: [],
  };
  return startLocalWeb({
    hostCount: resolved.hosts,
    firstAddress: resolved.firstAddress,
    port: resolved.port,
    gzip: resolved.gzip,
    userAgent: resolved.userAgent,
    cacheControl: resolved.cacheControl,
    build: (origins) => ({
      specs: origins.map((_origin, i) => fleetHost(resolved, graph, origins, i)),
      entryUrl: `${origins[0] ?? ''}/`,
    }),
    paths: (built) => built.specs.map(() => paths),
  });
}

function fleetHost(
  options: ResolvedFleetOptions,
  graph: FleetGraph,
  origins: readonly string[],
  index: number,
): HostSpec {
  const name = `host-${index}`;
  const origin = origins[index] ?? '';
  const nextOrigin = options.crossHostLinks && origins.length > 1 ? origins[(index + 1) % origins.length] : undefined;
  const site = { graph, host: index, origin, nextOrigin, profile: options.pageProfile };
  const resources = new Map<string, Resource>();
  if (options.sitemaps) {
    const entries = Array.from({ length: graph.pages }, (_, n) => ({ loc: origin + publicPath(n) }));
    resources.set('/sitemap.xml', textResource(urlsetXml(entries), 'application/xml; charset=utf-8'));
  }
  return {
    name,
    description:
      `Fleet host ${index + 1} of ${origins.length}: ${graph.pages} public pages, ` +
      `${graph.privatePages} under the disallowed /private/.`,
    robotsStatus: 200,
    robotsTxt: fleetRobotsTxt(options, name, origin),
    resources,
    resolve: (path) => renderFleetPage(site, path),
    ...(options.sitemaps ? { sitemapFiles: [`${origin}/sitemap.xml`] } : {}),
  };
}

export const MAX_FLEET_HOSTS = MAX_ADDRESS_OCTET - 1;
