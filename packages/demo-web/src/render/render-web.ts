// startRenderWeb: a site whose content exists only after JavaScript runs (a shell, an app script,
// a JSON API) and a third-party script host with its own robots.txt, with the truth behind every
// page (`renderPages`) and what a polite crawl with rendering must and must not request
// (`renderManifest`).

import { LocalWebError } from '../errors.js';
import { checkAddressRange, checkPort } from '../listen.js';
import { type HostPaths, startLocalWeb } from '../local-web.js';
import { robotsFacts } from '../robots-facts.js';
import type { LocalWeb } from '../types.js';
import { buildRenderSites } from './render-sites.js';
import {
  type JudgedHost,
  judgeRenderCrawl,
  RENDER_HOST_NAMES,
  type RenderCrawlTruth,
  type RenderHostName,
  type RenderOrigins,
  type RenderPageTruth,
  renderPageTruths,
} from './render-truth.js';

/** Options of `startRenderWeb`: the port, the first loopback address and the user agent its robots.txt names. */
export interface RenderWebOptions {
  /**
   * The TCP port every host listens on. 0 lets the OS pick one free port, shared by both hosts.
   * @default 0
   */
  readonly port?: number;
  /**
   * Last octet of the first host's address: the hosts take 127.0.0.(firstAddress) and
   * 127.0.0.(firstAddress + 1), in the order of `RENDER_HOST_NAMES` (app, cdn).
   * @default 100
   */
  readonly firstAddress?: number;
  /**
   * The user agent the manifest is computed for.
   * @default 'PolitelyDemo'
   */
  readonly userAgent?: string;
}

/** A running render web: the `LocalWeb` manifest plus the truth about every page once rendered. */
export interface RenderWeb extends LocalWeb {
  /**
   * Every page of the app host, front page first: its rendered title and links, and every request
   * rendering it makes in a browser without rules (see `renderManifest` for a polite one).
   */
  readonly renderPages: readonly RenderPageTruth[];
}

/**
 * What a complete, polite crawl with rendering from `web.entryUrl` must request and must never
 * request, for `userAgent` (the web's by default): judged by each host's robots.txt, with every
 * address outside the web's hosts refused and no WebSocket opened.
 */
export function renderManifest(web: RenderWeb, userAgent: string = web.userAgent): RenderCrawlTruth {
  const hosts: JudgedHost[] = web.hosts.map((host) => ({
    name: host.name as RenderHostName,
    origin: host.origin,
    facts: robotsFacts(host.robotsStatus, host.robotsTxt ?? '', userAgent),
  }));
  return judgeRenderCrawl(web.renderPages, web.entryUrl, hosts, userAgent);
}

/** The host manifest's paths: what the polite rendering crawl requests and refuses on each host. */
function hostPaths(truth: RenderCrawlTruth, origins: readonly string[]): HostPaths[] {
  const on = (origin: string, urls: readonly { url: string }[]): string[] =>
    urls.filter((entry) => entry.url.startsWith(`${origin}/`)).map((entry) => entry.url.slice(origin.length));
  return origins.map((origin) => ({
    expectedAllowedPaths: on(
      origin,
      truth.requested.filter((request) => request.type !== 'robots'),
    ).sort(),
    disallowedKnownPaths: on(
      origin,
      truth.neverRequested.filter((request) => request.reason === 'robots-disallowed'),
    ).sort(),
    nofollowPaths: [],
    sitemapOnlyPaths: [],
  }));
}

/**
 * Starts the render web: two hosts on 127.0.0.100–101 (by default), entered at the app's front
 * page (`web.entryUrl`). Its `expectedAllowedPaths` are what a polite crawl with rendering
 * requests (pages, scripts, API, pictures); a crawl without rendering finds the front page only.
 * Call `close()` when done.
 */
export async function startRenderWeb(options: RenderWebOptions = {}): Promise<RenderWeb> {
  const port = options.port ?? 0;
  const firstAddress = options.firstAddress ?? 100;
  const userAgent = options.userAgent ?? 'PolitelyDemo';
  checkPort(port, 'startRenderWeb');
  checkAddressRange(firstAddress, RENDER_HOST_NAMES.length, 'startRenderWeb');
  if (userAgent.trim() === '')
    throw new LocalWebError('ERR_INVALID_OPTION', 'startRenderWeb: userAgent must not be empty');
  let pages: RenderPageTruth[] = [];
  const web = await startLocalWeb({
    hostCount: RENDER_HOST_NAMES.length,
    firstAddress,
    port,
    gzip: true,
    userAgent,
    build: (list) => {
      const origins = Object.fromEntries(RENDER_HOST_NAMES.map((name, i) => [name, list[i] ?? ''])) as RenderOrigins;
      pages = renderPageTruths(origins);
      return { specs: buildRenderSites(origins, pages), entryUrl: `${origins.app}/` };
    },
    paths: (built, origins, facts) => {
      const hosts = built.specs.map((spec, i): JudgedHost => {
        const fact = facts[i];
        if (fact === undefined) throw new Error(`render web: host ${spec.name} has no robots facts`);
        return { name: spec.name as RenderHostName, origin: origins[i] ?? '', facts: fact };
      });
      return hostPaths(judgeRenderCrawl(pages, built.entryUrl, hosts, userAgent), origins);
    },
  });
  return { ...web, renderPages: pages };
}
