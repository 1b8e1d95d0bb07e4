// startDemoWeb: the one small web the demo, the examples and the integration tests crawl.

import { nearestName } from '@politely/core/internal';
import { crawlManifest } from '../crawl-manifest.js';
import { LocalWebError } from '../errors.js';
import type { HostSpec } from '../host-spec.js';
import { checkAddressRange, checkPort } from '../listen.js';
import { startLocalWeb } from '../local-web.js';
import type { LocalWeb } from '../types.js';
import { checkCacheControl } from '../validators.js';
import { buildCdn } from './cdn.js';
import { DEMO_HOST_NAMES, DEMO_USER_AGENT_TOKEN, type DemoHostName, type DemoOrigins } from './demo-hosts.js';
import { buildDocs } from './docs.js';
import { buildEvents } from './events.js';
import { buildHub } from './hub.js';
import { buildLegacy } from './legacy.js';
import { buildNews } from './news.js';
import { buildShop } from './shop.js';
import { buildStatus } from './status.js';

/**
 * Options of `startDemoWeb`: the port, the first loopback address, the user agent its robots.txt
 * names, compression and caching.
 */
export interface DemoWebOptions {
  /**
   * The TCP port every host listens on. 0 lets the OS pick one free port, which all hosts then
   * share (origins differ by address only); several webs can run at once this way.
   * @default 0
   */
  readonly port?: number;
  /**
   * Last octet of the first host's address: the hosts take 127.0.0.(firstAddress) to
   * 127.0.0.(firstAddress + 7), in the order of `DEMO_HOST_NAMES`.
   * @default 2
   */
  readonly firstAddress?: number;
  /**
   * The user agent the manifest (`hosts[].expectedAllowedPaths` and the rest) is computed for.
   * @default 'PolitelyDemo'
   */
  readonly userAgent?: string;
  /**
   * Gzip text responses of 1 KiB and more for clients that send `Accept-Encoding: gzip`.
   * @default true
   */
  readonly gzip?: boolean;
  /**
   * A `Cache-Control` value for every 200 (and 304), say `max-age=60` or `no-store`. Without one
   * nothing is fresh, and a recrawl revalidates every page (`ETag`, `Last-Modified` → 304).
   * @default undefined
   */
  readonly cacheControl?: string;
}

export type ResolvedDemoWebOptions = Required<Omit<DemoWebOptions, 'cacheControl'>> &
  Pick<DemoWebOptions, 'cacheControl'>;

/** Every option `startDemoWeb` knows: a key missing here, or one too many, is a type error. */
const DEMO_WEB_OPTION_KEYS: Record<keyof DemoWebOptions, true> = {
  port: true,
  firstAddress: true,
  userAgent: true,
  gzip: true,
  cacheControl: true,
};

export function resolveDemoWebOptions(options: DemoWebOptions = {}): ResolvedDemoWebOptions {
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(DEMO_WEB_OPTION_KEYS, key)) continue;
    const nearest = nearestName(key, Object.keys(DEMO_WEB_OPTION_KEYS));
    const hint = nearest === undefined ? '' : ` (did you mean ${nearest}?)`;
    throw new LocalWebError('ERR_INVALID_OPTION', `startDemoWeb: unknown option ${key}${hint}`);
  }
  const resolved = {
    port: options.port ?? 0,
    firstAddress: options.firstAddress ?? 2,
    userAgent: options.userAgent ?? DEMO_USER_AGENT_TOKEN,
    gzip: options.gzip ?? true,
    ...(options.cacheControl === undefined ? {} : { cacheControl: options.cacheControl }),
  };
  checkPort(resolved.port, 'startDemoWeb');
  checkCacheControl(resolved.cacheControl, 'startDemoWeb');
  checkAddressRange(resolved.firstAddress, DEMO_HOST_NAMES.length, 'startDemoWeb');
  if (resolved.userAgent.trim() === '') {
    throw new LocalWebError('ERR_INVALID_OPTION', 'startDemoWeb: userAgent must not be empty');
  }
  return resolved;
}

const BUILDERS: Readonly<Record<DemoHostName, (origins: DemoOrigins) => HostSpec>> = {
  hub: buildHub,
  shop: buildShop,
  news: buildNews,
  docs: buildDocs,
  events: buildEvents,
  legacy: buildLegacy,
  cdn: buildCdn,
  status: buildStatus,
};

/**
 * Starts the demo web: eight hosts on 127.0.0.2–9 (by default), entered at the hub's front page
 * (`web.entryUrl`). See each host's `description`, and `hosts[]` for what a polite crawl of it
 * must and must not fetch. Call `close()` when done.
 */
export async function startDemoWeb(options?: DemoWebOptions): Promise<LocalWeb> {
  const resolved = resolveDemoWebOptions(options);
  return startLocalWeb({
    hostCount: DEMO_HOST_NAMES.length,
    firstAddress: resolved.firstAddress,
    port: resolved.port,
    gzip: resolved.gzip,
    userAgent: resolved.userAgent,
    cacheControl: resolved.cacheControl,
    build: (origins) => {
      const byName = Object.fromEntries(DEMO_HOST_NAMES.map((name, i) => [name, origins[i] ?? ''])) as DemoOrigins;
      return { specs: DEMO_HOST_NAMES.map((name) => BUILDERS[name](byName)), entryUrl: `${byName.hub}/` };
    },
    paths: crawlManifest,
  });
}
