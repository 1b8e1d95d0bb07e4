// startHostileWeb: loopback servers that misbehave in every way a crawler must survive, and the
// list of cases with what a well-behaved crawler reports for each (the manifest a test checks a
// crawl against).

import { type HostInfo, type LocalWeb, LocalWebError } from '@politely/demo-web';
import { checkAddressRange, checkPort, pageLocator, robotsFacts } from '@politely/demo-web/internal';
import { buildBigRobots, MIN_BIG_ROBOTS_BYTES } from './big-robots.js';
import { buildBodies } from './bodies.js';
import { buildContent } from './content.js';
import { bindHostileServers, type HostileAddress } from './hostile-servers.js';
import { HOSTILE_HOST_NAMES, type HostileCase, type HostileHostFacts } from './hostile-types.js';
import type { HttpHostileHost } from './http-host.js';
import { buildHub } from './hub.js';
import { buildRaw } from './raw.js';
import { buildRedirects } from './redirects.js';
import { buildSilent } from './silent.js';
import { createTasks } from './tasks.js';
import { buildTraps } from './traps.js';

export interface HostileWebOptions {
  /**
   * The TCP port of every host. 0 lets the OS pick one free port that all hosts share when they
   * can (the two `node:net` hosts take a port of their own if that one is taken on their address).
   * @default 0
   */
  readonly port?: number;
  /**
   * Last octet of the first host's address: the hosts take 127.0.0.(firstAddress) to
   * 127.0.0.(firstAddress + 7), in the order of `HOSTILE_HOST_NAMES`.
   * @default 60
   */
  readonly firstAddress?: number;
  /**
   * The user agent the manifest (`hosts[].disallowedPrefixes` and the rest) is computed for.
   * @default 'PolitelyDemo'
   */
  readonly userAgent?: string;
  /**
   * Decoded size of each compression bomb (gzip, deflate, brotli). At least 1 MiB, at most 4 GiB.
   * Built on the first request to each bomb, in well under a second, and kept.
   * @default 1073741824 (1 GiB)
   */
  readonly bombDecodedBytes?: number;
  /**
   * Size of the big-robots host's robots.txt; at least 564 KiB, so that its last rule lies past
   * RFC 9309's 500 KiB. At most 100 MB.
   * @default 10000000 (10 MB)
   */
  readonly bigRobotsBytes?: number;
  /**
   * Distinct links on the many-links page (about 29 bytes each). 1 to 1,000,000.
   * @default 100000
   */
  readonly manyLinks?: number;
  /**
   * Milliseconds between two bytes of the slow drip. 1 to 60,000.
   * @default 1000
   */
  readonly dripIntervalMs?: number;
}

export type ResolvedHostileWebOptions = Required<HostileWebOptions>;

/** A running hostile web: the `LocalWeb` manifest plus the cases and the pages a crawl must get. */
export interface HostileWeb extends LocalWeb {
  /**
   * Every case, host by host. On this web `hosts[].expectedAllowedPaths` lists a host's good pages
   * only (a crawl also requests the case URLs, redirect hops and trap pages), and the many-links
   * targets are left out of `disallowedKnownPaths` (`disallowedPrefixes` covers them).
   */
  readonly cases: readonly HostileCase[];
  /**
   * Every good page a complete crawl from `entryUrl` must fetch with status 200: the hub, the
   * index pages, the charset and malformed-HTML pages and the pages their well-formed links lead
   * to, the many-links page, the first page of each trap, the big-robots host's allowed pages, …
   * Absolute URLs.
   */
  readonly goodPageUrls: readonly string[];
}

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

export function resolveHostileWebOptions(options: HostileWebOptions = {}): ResolvedHostileWebOptions {
  const resolved = {
    port: options.port ?? 0,
    firstAddress: options.firstAddress ?? 60,
    userAgent: options.userAgent ?? 'PolitelyDemo',
    bombDecodedBytes: options.bombDecodedBytes ?? GIB,
    bigRobotsBytes: options.bigRobotsBytes ?? 10_000_000,
    manyLinks: options.manyLinks ?? 100_000,
    dripIntervalMs: options.dripIntervalMs ?? 1000,
  };
  checkPort(resolved.port, 'startHostileWeb');
  checkAddressRange(resolved.firstAddress, HOSTILE_HOST_NAMES.length, 'startHostileWeb');
  if (resolved.userAgent.trim() === '') {
    throw new LocalWebError('ERR_INVALID_OPTION', 'startHostileWeb: userAgent must not be empty');
  }
  checkInteger('bombDecodedBytes', resolved.bombDecodedBytes, MIB, 4 * GIB);
  checkInteger('bigRobotsBytes', resolved.bigRobotsBytes, MIN_BIG_ROBOTS_BYTES, 100_000_000);
  checkInteger('manyLinks', resolved.manyLinks, 1, 1_000_000);
  checkInteger('dripIntervalMs', resolved.dripIntervalMs, 1, 60_000);
  return resolved;
}

function checkInteger(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new LocalWebError(
      'ERR_INVALID_OPTION',
      `startHostileWeb: ${name} must be an integer in ${min}–${max}, got ${String(value)}`,
    );
  }
}

/**
 * Starts the hostile web: eight hosts on 127.0.0.60–67 (by default), entered at the hub's front
 * page (`web.entryUrl`). See `cases` for what each misbehaving server does and what a crawler
 * must report, and `goodPageUrls` for what it must still fetch. Call `close()` when done: it
 * ends hanging connections and background work at once.
 */
export async function startHostileWeb(options?: HostileWebOptions): Promise<HostileWeb> {
  const resolved = resolveHostileWebOptions(options);
  const tasks = createTasks();
  const servers = await bindHostileServers(resolved.firstAddress, resolved.port, tasks);
  try {
    const { origins } = servers;
    const others: HttpHostileHost[] = [
      buildRedirects(origins.redirects),
      buildBodies(origins.bodies, resolved, tasks),
      buildContent(origins.content, resolved),
      buildTraps(origins.traps),
      buildBigRobots(origins['big-robots'], resolved.bigRobotsBytes),
    ];
    const raw = buildRaw(origins.raw, tasks);
    const silent = buildSilent(origins.silent);
    const withOrigin = [...others, raw, silent].map((host) => ({ ...host, origin: origins[host.name] }));
    const hub = buildHub(withOrigin);
    servers.serve({ http: [hub, ...others], raw });

    const facts: HostileHostFacts[] = [hub, ...others, raw, silent];
    const hosts = facts.map((host, i) => hostInfo(host, servers.addresses[i], resolved.userAgent));
    const byName = new Map(hosts.map((host) => [host.name, host]));
    const host = (name: string): HostInfo => {
      const found = byName.get(name);
      if (found === undefined) {
        const known = HOSTILE_HOST_NAMES.join(', ');
        throw new LocalWebError(
          'ERR_UNKNOWN_HOST',
          `hostile web: no host named ${JSON.stringify(name)} (hosts: ${known})`,
        );
      }
      return found;
    };
    const locate = pageLocator(
      servers.addresses.map((address) => address.origin),
      `${origins.hub}/`,
    );
    return {
      hosts,
      entryUrl: `${origins.hub}/`,
      userAgent: resolved.userAgent,
      cases: facts.flatMap((f) => f.cases),
      goodPageUrls: facts.flatMap((f) => f.goodPaths.map((path) => `${origins[f.name]}${path}`)),
      host,
      url: (name, path) => new URL(path, `${host(name).origin}/`).href,
      requestLog: (origin) => servers.requestLog(origin),
      resetLogs: () => servers.resetLogs(),
      changePages: (urlsOrPaths) => {
        if (urlsOrPaths.length === 0) return;
        locate(urlsOrPaths[0] ?? '');
        throw new LocalWebError(
          'ERR_UNCHANGEABLE_PAGE',
          "hostile web: its pages never change (the demo web's and fleets' do)",
        );
      },
      revisionOf: (urlOrPath) => {
        locate(urlOrPath);
        return 0;
      },
      close: () => servers.close(),
    };
  } catch (error) {
    await servers.close();
    throw error;
  }
}

function hostInfo(host: HostileHostFacts, address: HostileAddress | undefined, userAgent: string): HostInfo {
  if (address === undefined) throw new Error(`hostile web: host ${host.name} was built without an address`);
  // A host that never answers has an unreachable robots.txt: RFC 9309 says disallow everything.
  const facts = host.robotsTxt === null ? robotsFacts(503, '', userAgent) : robotsFacts(200, host.robotsTxt, userAgent);
  return {
    name: host.name,
    description: host.description,
    ...address,
    robotsStatus: host.robotsTxt === null ? 0 : 200,
    robotsTxt: host.robotsTxt,
    crawlDelaySeconds: facts.crawlDelaySeconds,
    disallowedPrefixes: facts.disallowedPrefixes,
    sitemaps: facts.sitemaps,
    expectedAllowedPaths: [...host.goodPaths].sort(),
    disallowedKnownPaths: [...(host.disallowedKnownPaths ?? [])].sort(),
    nofollowPaths: [],
    sitemapOnlyPaths: [],
    trapPrefixes: host.trapPrefixes ?? [],
  };
}
